// A small MQL4 runtime in C++17 over a simulated MetaTrader 4 terminal, so that ea/CopyMonitor.mq4
// compiles with g++ and runs end to end against the real server (tests/ea/ea4.test.ts).
//
// The language bridge (UTF-16 strings, unsigned datetime, const inputs, time, logging, the timer,
// WebRequest over real HTTP, symbols, the terminal's connection and the account's figures) is
// mql5.h's: MQL4 build 600+ has the same functions with the same signatures (TerminalInfoInteger,
// AccountInfoInteger, SymbolInfoInteger among them). What MQL4 alone has is here: its order pools
// (open orders and history, selected by position or ticket), the Order* accessors,
// OrderSend/OrderModify/OrderClose with MT4's signatures and error codes (a volume off the lot step
// 131, stops inside the stop level 130, and on a market-execution (ECN) symbol an OrderSend that
// carries SL/TP 130), the Account* functions, MarketInfo, RefreshRates, GlobalVariable*, and
// WebRequest's error for a URL not allowed (4060, where MQL5 has 4014). mql5.h's MQL5-only names
// (positions, deals, MqlTradeRequest, TimeTradeServer) are poisoned at the end of this file: the
// .mq4 cannot use them and still compile here.
#pragma once

#include "mql5.h"

#include <map>

typedef uint color;
const color clrNONE = 0xFFFFFFFF;

// ---- order pools -------------------------------------------------------------------------------
const int OP_BUY = 0, OP_SELL = 1, OP_BUYLIMIT = 2, OP_SELLLIMIT = 3, OP_BUYSTOP = 4, OP_SELLSTOP = 5;
const int SELECT_BY_POS = 0, SELECT_BY_TICKET = 1;
const int MODE_TRADES = 0, MODE_HISTORY = 1;
const int MODE_BID = 9, MODE_ASK = 10, MODE_POINT = 11, MODE_DIGITS = 12, MODE_STOPLEVEL = 14;
const int MODE_MINLOT = 23, MODE_LOTSTEP = 24, MODE_MAXLOT = 25;

// MQL4's WebRequest says 4060 (ERR_FUNCTION_NOT_CONFIRMED) for a URL missing from the allow-list.
static const bool sim4_webrequest_error = (sim_url_not_allowed_error() = 4060, true);

struct SimOrder {
  int ticket = 0;
  string symbol;    // "" for balance and credit operations
  int type = 0;     // OP_BUY … OP_SELLSTOP, 6 balance, 7 credit
  double lots = 0;
  datetime open_time = 0;
  double open_price = 0, sl = 0, tp = 0;
  datetime close_time = 0;   // 0 while open
  double close_price = 0;    // an open order's: the current price
  double commission = 0, swap = 0, profit = 0;
  int magic = 0;
  string comment;
};
struct SimRefusal4 {
  string kind;  // modify | close | open
  int ticket = 0;  // 0: any
  int error = 0;
};
struct SimTerminal4 {
  string company = "Simulated Broker Ltd";
  std::vector<SimOrder> trades;    // MODE_TRADES: open and pending orders
  std::vector<SimOrder> history;   // MODE_HISTORY: closed orders, balance operations
  std::vector<SimRefusal4> refusals;
  int next_ticket = 1000000;
  bool selected_history = false;
  int selected = -1;
};
inline SimTerminal4 &sim4() { static SimTerminal4 t; return t; }

// Not loaded yet (a terminal starting): no orders at all.
inline int OrdersTotal() { return sim_loaded() ? (int)sim4().trades.size() : 0; }
inline int OrdersHistoryTotal() { return sim_loaded() ? (int)sim4().history.size() : 0; }
inline bool OrderSelect(int index, int select, int pool = MODE_TRADES) {
  SimTerminal4 &t = sim4();
  if (!sim_loaded()) { mql_last_error() = select == SELECT_BY_TICKET ? 4108 : 4051; return false; }
  if (select == SELECT_BY_TICKET) {
    for (size_t i = 0; i < t.trades.size(); i++)
      if (t.trades[i].ticket == index) { t.selected_history = false; t.selected = (int)i; return true; }
    for (size_t i = 0; i < t.history.size(); i++)
      if (t.history[i].ticket == index) { t.selected_history = true; t.selected = (int)i; return true; }
    mql_last_error() = 4108;
    return false;
  }
  const std::vector<SimOrder> &list = pool == MODE_HISTORY ? t.history : t.trades;
  if (index < 0 || index >= (int)list.size()) { mql_last_error() = 4051; return false; }
  t.selected_history = pool == MODE_HISTORY;
  t.selected = index;
  return true;
}
inline const SimOrder &sim_order() {
  static const SimOrder none;
  SimTerminal4 &t = sim4();
  const std::vector<SimOrder> &list = t.selected_history ? t.history : t.trades;
  if (t.selected < 0 || t.selected >= (int)list.size()) { mql_last_error() = 4105; return none; }
  return list[t.selected];
}
inline int OrderTicket() { return sim_order().ticket; }
inline int OrderType() { return sim_order().type; }
inline string OrderSymbol() { return sim_order().symbol; }
inline double OrderLots() { return sim_order().lots; }
inline double OrderOpenPrice() { return sim_order().open_price; }
inline double OrderClosePrice() { return sim_order().close_price; }
inline double OrderStopLoss() { return sim_order().sl; }
inline double OrderTakeProfit() { return sim_order().tp; }
inline double OrderProfit() { return sim_order().profit; }
inline double OrderSwap() { return sim_order().swap; }
inline double OrderCommission() { return sim_order().commission; }
inline datetime OrderOpenTime() { return sim_order().open_time; }
inline datetime OrderCloseTime() { return sim_order().close_time; }
inline int OrderMagicNumber() { return sim_order().magic; }
inline string OrderComment() { return sim_order().comment; }

// ---- account, market ---------------------------------------------------------------------------
inline double AccountBalance() { return AccountInfoDouble(ACCOUNT_BALANCE); }
inline double AccountEquity() { return AccountInfoDouble(ACCOUNT_EQUITY); }
inline double AccountMargin() { return AccountInfoDouble(ACCOUNT_MARGIN); }
inline double AccountFreeMargin() { return AccountInfoDouble(ACCOUNT_MARGIN_FREE); }
inline int AccountNumber() { return (int)AccountInfoInteger(ACCOUNT_LOGIN); }
inline int AccountLeverage() { return (int)AccountInfoInteger(ACCOUNT_LEVERAGE); }
inline string AccountServer() { return AccountInfoString(ACCOUNT_SERVER); }
inline string AccountCompany() { return sim_account_known() ? sim4().company : string(); }
inline string AccountCurrency() { return AccountInfoString(ACCOUNT_CURRENCY); }
inline double MarketInfo(const string &symbol, int mode) {
  SimSymbol *s = sim_symbol(symbol);
  if (!s) { mql_last_error() = 4106; return 0; }
  switch (mode) {
    case MODE_BID: return s->bid;
    case MODE_ASK: return s->ask;
    case MODE_POINT: return s->point();
    case MODE_DIGITS: return s->digits;
    case MODE_STOPLEVEL: return s->stops_level;
    case MODE_MINLOT: return s->vol_min;
    case MODE_LOTSTEP: return s->vol_step;
    case MODE_MAXLOT: return s->vol_max;
  }
  mql_last_error() = 4051;
  return 0;
}
inline bool RefreshRates() { return true; }

// ---- the trade server --------------------------------------------------------------------------
inline bool sim4_refuse(const string &kind, int ticket) {
  for (auto &r : sim4().refusals)
    if (r.kind == kind && (r.ticket == 0 || r.ticket == ticket)) { mql_last_error() = r.error; return true; }
  return false;
}
inline SimOrder *sim4_open(int ticket) {
  for (auto &o : sim4().trades) if (o.ticket == ticket) return &o;
  return nullptr;
}
inline void sim4_recompute_equity() {
  double floating = 0;
  for (auto &o : sim4().trades) floating += o.profit + o.swap + o.commission;
  sim().equity = sim().balance + floating;
  sim().free_margin = sim().equity - sim().margin;
}

/** What MT4 refuses before anything else: no connection (6), AutoTrading off (4109). */
inline bool sim4_cannot_trade() {
  if (!sim_connected()) { mql_last_error() = 6; return true; }
  if (!sim().algo_trading) { mql_last_error() = 4109; return true; }
  return false;
}

inline bool OrderModify(int ticket, double price, double stoploss, double takeprofit, datetime expiration, color arrow_color) {
  (void)price; (void)expiration; (void)arrow_color;
  if (sim4_cannot_trade()) return false;
  SimOrder *o = sim4_open(ticket);
  if (!o) { mql_last_error() = 4108; return false; }
  if (sim4_refuse("modify", ticket)) return false;
  if (o->sl == stoploss && o->tp == takeprofit) { mql_last_error() = 1; return false; }
  SimSymbol *s = sim_symbol(o->symbol);
  if (s && !sim_stops_ok(*s, o->type == OP_BUY, stoploss, takeprofit)) { mql_last_error() = 130; return false; }
  o->sl = stoploss;
  o->tp = takeprofit;
  return true;
}

/** Closes the whole order, or part of it: MT4 then keeps the closed part under the old ticket ("to #new")
 *  and the rest open under a new one ("from #old"). */
inline bool OrderClose(int ticket, double lots, double price, int slippage, color arrow_color) {
  (void)slippage; (void)arrow_color;
  SimTerminal4 &t = sim4();
  if (sim4_cannot_trade()) return false;
  SimOrder *o = sim4_open(ticket);
  if (!o || (o->type != OP_BUY && o->type != OP_SELL)) { mql_last_error() = 4108; return false; }
  if (sim4_refuse("close", ticket)) return false;
  SimSymbol *s = sim_symbol(o->symbol);
  bool whole = std::fabs(lots - o->lots) < 1e-9;
  if (lots <= 0 || lots > o->lots + 1e-9 || (s && !whole && !sim_volume_ok(*s, lots))) { mql_last_error() = 131; return false; }
  double market = s ? (o->type == OP_BUY ? s->bid : s->ask) : o->close_price;
  if (std::fabs(market - price) > 1e-9) { mql_last_error() = 129; return false; }
  double share = lots / o->lots;
  SimOrder closed = *o;
  closed.lots = lots;
  closed.close_time = sim_server_time();
  closed.close_price = price;
  closed.profit = std::round(o->profit * share * 100) / 100;
  closed.swap = std::round(o->swap * share * 100) / 100;
  closed.commission = std::round(o->commission * share * 100) / 100;
  sim().balance += closed.profit + closed.swap + closed.commission;
  if (share < 1 - 1e-9) {
    SimOrder rest = *o;
    rest.ticket = t.next_ticket++;
    rest.lots = std::round((o->lots - lots) * 1e8) / 1e8;
    rest.profit = o->profit - closed.profit;
    rest.swap = o->swap - closed.swap;
    rest.commission = o->commission - closed.commission;
    rest.comment = "from #" + std::to_string(ticket);
    closed.comment = "to #" + std::to_string(rest.ticket);
    *o = rest;
  } else {
    t.trades.erase(t.trades.begin() + (o - t.trades.data()));
  }
  t.history.push_back(closed);
  sim4_recompute_equity();
  return true;
}

/**
 * Opens at market. Refused: a volume off the symbol's lot step or outside its min and max (131), stops
 * not to its digits or inside its stop level (130), and on a symbol in market execution (an ECN
 * account) any SL or TP at all (130): there they are set by OrderModify once the order is open.
 */
inline int OrderSend(const string &symbol, int cmd, double volume, double price, int slippage, double stoploss, double takeprofit,
                     const string &comment, int magic, datetime expiration, color arrow_color) {
  (void)slippage; (void)expiration; (void)arrow_color;
  SimTerminal4 &t = sim4();
  if (sim4_cannot_trade()) return -1;
  if (sim4_refuse("open", 0)) return -1;
  SimSymbol *s = sim_symbol(symbol);
  if (!s) { mql_last_error() = 4106; return -1; }
  if (cmd != OP_BUY && cmd != OP_SELL) { mql_last_error() = 3; return -1; }
  if (volume <= 0 || !sim_volume_ok(*s, volume)) { mql_last_error() = 131; return -1; }
  if (std::fabs(price - (cmd == OP_BUY ? s->ask : s->bid)) > 1e-9) { mql_last_error() = 129; return -1; }
  if (s->exemode == SYMBOL_TRADE_EXECUTION_MARKET && (stoploss != 0 || takeprofit != 0)) { mql_last_error() = 130; return -1; }
  if (!sim_stops_ok(*s, cmd == OP_BUY, stoploss, takeprofit)) { mql_last_error() = 130; return -1; }
  SimOrder o;
  o.ticket = t.next_ticket++;
  o.symbol = symbol;
  o.type = cmd;
  o.lots = volume;
  o.open_time = sim_server_time();
  o.open_price = price;
  o.close_price = cmd == OP_BUY ? s->bid : s->ask;
  o.sl = stoploss;
  o.tp = takeprofit;
  o.magic = magic;
  o.comment = comment;
  t.trades.push_back(o);
  sim4_recompute_equity();
  return o.ticket;
}

// ---- the terminal's global variables (kept across restarts: the driver saves them) --------------
inline std::map<string, double> &sim_globals() { static std::map<string, double> g; return g; }
inline bool GlobalVariableCheck(const string &name) { return sim_globals().count(name) > 0; }
inline double GlobalVariableGet(const string &name) {
  auto it = sim_globals().find(name);
  if (it == sim_globals().end()) { mql_last_error() = 4058; return 0; }
  return it->second;
}
inline datetime GlobalVariableSet(const string &name, double value) {
  sim_globals()[name] = value;
  return sim_server_time();
}

// ---- MQL5 only: an EA for MT4 that names one of these does not compile here ----------------------
#pragma GCC poison PositionsTotal PositionGetTicket PositionSelectByTicket PositionGetInteger PositionGetDouble PositionGetString
#pragma GCC poison HistorySelect HistoryDealSelect HistoryDealsTotal HistoryDealGetTicket HistoryDealGetInteger HistoryDealGetDouble HistoryDealGetString
#pragma GCC poison MqlTradeRequest MqlTradeResult MqlTradeTransaction TimeTradeServer OnTradeTransaction
#pragma GCC poison POSITION_IDENTIFIER DEAL_ENTRY_IN DEAL_ENTRY_OUT TRADE_ACTION_DEAL TRADE_ACTION_SLTP SYMBOL_FILLING_MODE
