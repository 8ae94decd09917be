import { brokerIconName, type BrokerIconName } from '#shared/domain/constants.ts';
import './broker-icon.css';

/**
 * Broker marks drawn inline (docs/product.md#fields: IBKR, Avatrade, Exante, Amana Capital, Zenfinex-Taurex,
 * AFTERPRIME, 8cap, EquitiBrokerageSC). Our own simple monograms in each broker's brand colour,
 * not the brokers' trademarks; nothing is fetched at run time. Any other broker gets a neutral
 * monogram from its initials.
 */
const MARKS: Record<BrokerIconName, { bg: string; fg: string; text: string }> = {
  IBKR: { bg: '#D81222', fg: '#FFFFFF', text: 'IB' },
  Avatrade: { bg: '#0A3D91', fg: '#FFFFFF', text: 'Av' },
  Exante: { bg: '#111827', fg: '#F5C518', text: 'Ex' },
  'Amana Capital': { bg: '#00A19A', fg: '#FFFFFF', text: 'Am' },
  'Zenfinex-Taurex': { bg: '#5B2C83', fg: '#FFFFFF', text: 'ZT' },
  AFTERPRIME: { bg: '#0F0F0F', fg: '#4ADE80', text: 'AP' },
  '8cap': { bg: '#F26B1D', fg: '#FFFFFF', text: '8c' },
  EquitiBrokerageSC: { bg: '#1B365D', fg: '#E5B94E', text: 'Eq' },
};

function initials(name: string): string {
  const words = name.trim().split(/[\s\-_]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}` : name.trim().slice(0, 2);
  return letters.toUpperCase() || '?';
}

/**
 * The monogram's letters are drawn by CSS from data-mark, not written in the page: they are the
 * broker's mark, an image named by its broker, not text. Written as text they made every picker and
 * button showing one read 'IB' on screen but 'IBKR' to assistive technology (axe's
 * label-content-name-mismatch, WCAG 2.5.3).
 */
export function BrokerIcon({ broker, size = 24 }: { broker: string; size?: number }) {
  const known = brokerIconName(broker);
  const mark = known ? MARKS[known] : { bg: 'var(--muted)', fg: 'var(--surface)', text: initials(broker) };
  const fontSize = (size * (mark.text.length > 2 ? 10 : 13)) / 32;
  return (
    <span
      className="broker-icon"
      role="img"
      aria-label={broker}
      data-broker-icon={known ?? 'generic'}
      data-mark={mark.text}
      style={{ width: size, height: size, borderRadius: size / 4, background: mark.bg, color: mark.fg, fontSize }}
    />
  );
}
