/**
 * The product's two markets (docs/instruments.md): currency pairs and spot metals are Forex,
 * everything else (indices, commodities, coins, shares) Equities. An instrument's, a position's and
 * a deal's `category`, a copy rule's `market_type`. Not the account category (`teiko_category`,
 * src/shared/domain/portfolios.ts).
 */
export const MARKETS = ['Forex', 'Equities'] as const;
export type Market = (typeof MARKETS)[number];
