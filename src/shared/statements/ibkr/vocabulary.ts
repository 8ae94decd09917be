/*
 * The words of Interactive Brokers' Flex XML the reader knows: sections, row elements, attributes and
 * `notes` codes. A word outside these lists is a warning with a count (IB adds fields over the years),
 * never a refusal. The attribute lists are IB's field names of the Activity Flex Query as its reference
 * names them, per row element; summary elements with hundreds of fields (CashReportCurrency) are read
 * by the few fields that matter and not checked.
 */

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/** Sections of a FlexStatement the reader books or reads (containers of rows), and their row elements. */
export const READ_SECTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['Trades', words('Trade Order Lot TradeCancel SymbolSummary AssetSummary WashSale')],
  ['CashTransactions', words('CashTransaction')],
  ['CorporateActions', words('CorporateAction')],
  ['FxTransactions', words('FxTransaction')],
  ['ConversionRates', words('ConversionRate')],
  ['CashReport', words('CashReportCurrency')],
  ['EquitySummaryInBase', words('EquitySummaryByReportDateInBase')],
  ['OpenPositions', words('OpenPosition')],
  // Listed so that their rows can be counted in a warning: position transfers are not booked.
  ['Transfers', words('Transfer')],
]);

/** Elements that stand alone under a FlexStatement and carry their data as attributes. */
export const SINGLE_ELEMENTS: ReadonlySet<string> = words('AccountInformation');

/** Sections IB writes that this reader leaves aside on purpose (performance summaries, accruals, confirmations …). */
export const IGNORED_SECTIONS: ReadonlySet<string> = words(`
  ChangeInNAV MTDYTDPerformanceSummary MTMPerformanceSummaryInBase FIFOPerformanceSummaryInBase
  FdicInsuredDepositsByBank StmtFunds ChangeInPositionValues NetStockPositionSummary ComplexPositions FxPositions
  HKIPOSubscriptionActivity TradeConfirms TransactionTaxes OptionEAE PendingExcercises PendingExercises TradeTransfers
  UnbookedTrades RoutingCommissions IBGNoteTransactions UnsettledTransfers UnbundledCommissionDetails Adjustments
  PriorPeriodPositions ClientFees ClientFeesDetail DebitCardActivities SoftDollars SalesTaxes CFDCharges
  InterestAccruals TierInterestDetails HardToBorrowDetails HardToBorrowMarkupDetails SLBOpenContracts SLBActivities
  SLBFees ChangeInDividendAccruals OpenDividendAccruals SecuritiesInfo HKIPOOpenSubscriptions CommissionCredits
  StockGrantActivities SLBCollaterals IncentiveCouponAccrualDetails DepositsOnHold NetStockPositions
`);

const TRADE_ATTRIBUTES = words(`
  accountId acctAlias model currency fxRateToBase assetCategory subCategory symbol description conid securityID
  securityIDType cusip isin figi sedol listingExchange underlyingConid underlyingSymbol underlyingSecurityID
  underlyingListingExchange issuer issuerCountryCode multiplier strike expiry putCall tradeID relatedTradeID
  principalAdjustFactor reportDate dateTime tradeDate tradeTime settleDateTarget settleDate transactionType exchange
  quantity tradePrice TradePrice price tradeMoney amount proceeds taxes tax ibCommission ibCommissionCurrency
  commission commissionCurrency brokerExecutionCommission brokerClearingCommission thirdPartyExecutionCommission
  thirdPartyClearingCommission thirdPartyRegulatoryCommission otherCommission netCash netCashInBase closePrice
  openCloseIndicator notes code cost fifoPnlRealized capitalGainsPnl fxPnl mtmPnl origTradePrice origTradeDate
  origTradeID origOrderID origTransactionID clearingFirmID transactionID relatedTransactionID buySell ibOrderID
  orderID ibExecID execID brokerageOrderID orderReference volatilityOrderLink exchOrderId extExecID orderTime
  orderPlacementTime openDateTime holdingPeriodDateTime whenRealized whenReopened levelOfDetail changeInPrice
  changeInQuantity orderType traderID isAPIOrder allocatedTo accruedInt serialNumber deliveryType commodityType
  fineness weight rtn initialInvestment positionActionID rfqID blockID
`);

/** The attributes IB writes on each row element the reader books; others are counted in a warning. */
export const KNOWN_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['Trade', TRADE_ATTRIBUTES],
  ['Order', TRADE_ATTRIBUTES],
  ['Lot', TRADE_ATTRIBUTES],
  ['TradeCancel', TRADE_ATTRIBUTES],
  [
    'CashTransaction',
    words(`
      accountId acctAlias model currency fxRateToBase assetCategory subCategory symbol description conid securityID
      securityIDType cusip isin figi sedol listingExchange underlyingConid underlyingSymbol underlyingSecurityID
      underlyingListingExchange issuer issuerCountryCode multiplier strike expiry putCall principalAdjustFactor
      dateTime settleDate reportDate exDate availableForTradingDate amount type tradeID code transactionID
      clientReference actionID levelOfDetail serialNumber deliveryType commodityType fineness weight
    `),
  ],
  [
    'CorporateAction',
    words(`
      accountId acctAlias model currency fxRateToBase assetCategory subCategory symbol description conid securityID
      securityIDType cusip isin figi sedol listingExchange underlyingConid underlyingSymbol underlyingSecurityID
      underlyingListingExchange issuer issuerCountryCode multiplier strike expiry putCall principalAdjustFactor
      reportDate dateTime actionID actionDescription amount proceeds value quantity fifoPnlRealized capitalGainsPnl
      fxPnl mtmPnl costBasis type code transactionID levelOfDetail serialNumber deliveryType commodityType fineness
      weight
    `),
  ],
  [
    'FxTransaction',
    words(`
      accountId acctAlias model assetCategory reportDate functionalCurrency fxCurrency activityDescription dateTime
      quantity proceeds cost realizedPL code levelOfDetail
    `),
  ],
  ['ConversionRate', words('reportDate fromCurrency toCurrency rate')],
  [
    'OpenPosition',
    words(`
      accountId acctAlias model currency fxRateToBase assetCategory subCategory symbol description conid securityID
      securityIDType cusip isin figi sedol listingExchange underlyingConid underlyingSymbol underlyingSecurityID
      underlyingListingExchange issuer issuerCountryCode multiplier strike expiry putCall principalAdjustFactor
      reportDate position markPrice positionValue positionValueInBase openPrice costBasisPrice costBasisMoney
      fifoPnlUnrealized unrealizedCapitalGainsPnl unrealizedlFxPnl percentOfNAV side levelOfDetail openDateTime
      holdingPeriodDateTime vestingDate code originatingOrderID originatingTransactionID accruedInt serialNumber
      deliveryType commodityType fineness weight
    `),
  ],
]);

/**
 * IB's `notes` codes (Notes/Legal Notes of the Activity Statement): what a trade row is besides a plain
 * fill. The reader acts on Ca, Co, A, Ex, AEx, MEx, GEA and Ep; the others only describe the row.
 */
export const NOTES_CODES: ReadonlySet<string> = words(`
  A ADR AEx AFx Adj Al Aw B Bo C CD CP Ca Co Cx D DRIP ETF Ep Ex FP FPA G GEA HC HFI HFR I IA IM INV IPO L LD LI LT
  Lo M MEx ML MLG MLL MSG MSL O P PI Po Pr R RED RP RPA Re Ri SI SL SO SS ST SY T U
`);
