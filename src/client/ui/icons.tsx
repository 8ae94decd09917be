/*
 * The app's icons, drawn once: 24-unit line icons in the text's colour (currentColor), hidden from
 * assistive technology (the button or text beside them says what they do). Charts and the execution
 * grid's best/worst marks are pictures of data, not icons, and are drawn where they are used.
 */
import type { ReactNode } from 'react';

interface IconProps {
  /** Width and height in CSS pixels. */
  size?: number;
  className?: string;
}

function Icon({ size = 18, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      {children}
    </svg>
  );
}

const line = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** An arrow down onto a line: a file to download (CSV, PDF, statement). */
export const DownloadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 4v11m0 0l-4-4m4 4l4-4M5 19h14" {...line} />
  </Icon>
);

/** An arrow up out of a tray: a file to import. */
export const UploadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 15V4m0 0-4 4m4-4 4 4M5 14v4a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-4" {...line} />
  </Icon>
);

/** Four corners: open full screen. */
export const ExpandIcon = ({ size = 20, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" {...line} strokeLinejoin="miter" />
  </Icon>
);

/** A cross: close. */
export const CloseIcon = ({ size = 20, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M6 6l12 12M18 6L6 18" {...line} />
  </Icon>
);

/** Three bars: the menu. */
export const MenuIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M3 6h18M3 12h18M3 18h18" {...line} />
  </Icon>
);

/** A door with an arrow out: sign out. */
export const LogoutIcon = ({ size = 20, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11" {...line} />
  </Icon>
);

/** A bell: the notifications. */
export const BellIcon = ({ size = 22, ...props }: IconProps) => (
  <Icon size={size} {...props}>
    <path
      d="M12 3a6 6 0 0 0-6 6v3.6L4.4 15.5A1 1 0 0 0 5.3 17h13.4a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15a2.5 2.5 0 0 0 5 0"
      {...line}
      strokeWidth={1.8}
    />
  </Icon>
);

/** A triangle with an exclamation mark: a warning. */
export const WarningIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3 2 20h20L12 3Z" {...line} />
    <path d="M12 10v4M12 17v.5" {...line} />
  </Icon>
);

/** A struck-through wireless signal: offline. */
export const OfflineIcon = (props: IconProps) => (
  <Icon {...props}>
    <path
      d="M3 3l18 18M8.5 16.4a5 5 0 0 1 7 0M5 12.9a10 10 0 0 1 4.2-2.4M12 19h.01M15 10.6a10 10 0 0 1 4 2.3M1.5 9a15 15 0 0 1 4.1-2.6M10.7 5.1A15 15 0 0 1 22.5 9"
      {...line}
    />
  </Icon>
);

/** A chevron down: a list that opens. */
export const ChevronDownIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 9l6 6 6-6" {...line} />
  </Icon>
);
