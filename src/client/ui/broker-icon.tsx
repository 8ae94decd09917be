import { brokerIconName, type BrokerIconName } from '#shared/domain/constants.ts';

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

export function BrokerIcon({ broker, size = 24 }: { broker: string; size?: number }) {
  const known = brokerIconName(broker);
  const mark = known ? MARKS[known] : { bg: 'var(--muted)', fg: 'var(--surface)', text: initials(broker) };
  return (
    <svg
      className="broker-icon"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role="img"
      aria-label={broker}
      data-broker-icon={known ?? 'generic'}
    >
      <rect width="32" height="32" rx="8" fill={mark.bg} />
      <text
        x="16"
        y="16"
        dy="0.35em"
        textAnchor="middle"
        fontFamily="system-ui, sans-serif"
        fontWeight="700"
        fontSize={mark.text.length > 2 ? 10 : 13}
        fill={mark.fg}
      >
        {mark.text}
      </text>
    </svg>
  );
}
