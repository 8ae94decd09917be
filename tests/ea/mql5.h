// A small MQL5 runtime in C++17 over a simulated MetaTrader 5 terminal, so that ea/CopyMonitor.mq5
// compiles with g++ and runs end to end against the real server (tests/ea/ea.test.ts).
//
// Only what the EA uses is here. Where the two languages differ, this header bridges them:
// `input` is a no-op macro (inputs become globals the driver sets), `string` is std::string,
// the MQL5 dynamic byte arrays the EA declares through CM_BYTES are std::vector<char>,
// MqlTradeRequest/MqlTradeResult are plain structs. WebRequest is real HTTP/1.1 over TCP (http://
// only). The terminal (account, positions, deals, symbols, refusals) is loaded from and saved to a
// small text file by the driver (tests/ea/driver.cpp).
#pragma once

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <netdb.h>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <vector>

// ---- language ----------------------------------------------------------------------------------
#define input
#define sinput
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef long datetime;
typedef std::string string;
#define CM_BYTES(name) std::vector<char> name

const int WHOLE_ARRAY = -1;
const uint CP_ACP = 0;
const uint CP_UTF8 = 65001;
const int INIT_SUCCEEDED = 0;
const int INIT_PARAMETERS_INCORRECT = 32767;
const int INIT_FAILED = 1;
const int REASON_REMOVE = 1;

template <typename T> int ArraySize(const std::vector<T> &a) { return (int)a.size(); }
template <typename T> int ArrayResize(std::vector<T> &a, int n) { a.resize(n < 0 ? 0 : n); return (int)a.size(); }
template <typename T> void ZeroMemory(T &x) { x = T(); }

// ---- errors, time, randomness ------------------------------------------------------------------
inline int &mql_last_error() { static int e = 0; return e; }
inline int GetLastError() { return mql_last_error(); }
inline void ResetLastError() { mql_last_error() = 0; }

struct SimClock {
  long utc_offset_s = 0;     // broker server time − UTC (TimeTradeServer() − TimeGMT())
  long local_offset_s = 0;   // the PC's time zone (TimeLocal() − TimeGMT())
  long pc_skew_s = 0;        // how far this computer's clock is off (TimeGMT comes from it)
};
inline SimClock &sim_clock() { static SimClock c; return c; }
inline datetime TimeGMT() { return (datetime)std::time(nullptr) + sim_clock().pc_skew_s; }
inline datetime TimeTradeServer() { return TimeGMT() + sim_clock().utc_offset_s; }
inline datetime TimeCurrent() { return TimeTradeServer(); }
inline datetime TimeLocal() { return TimeGMT() + sim_clock().local_offset_s; }
inline uint GetTickCount() {
  using namespace std::chrono;
  return (uint)duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}
inline void MathSrand(uint seed) { std::srand(seed); }
inline int MathRand() { return std::rand() % 32768; }
template <typename A, typename B> double MathMin(A a, B b) { return a < b ? (double)a : (double)b; }
template <typename A, typename B> double MathMax(A a, B b) { return a > b ? (double)a : (double)b; }
inline double MathAbs(double v) { return std::fabs(v); }
inline double MathRound(double v) { return std::round(v); }
inline double MathFloor(double v) { return std::floor(v); }

// ---- strings -----------------------------------------------------------------------------------
inline int StringLen(const string &s) { return (int)s.size(); }
inline string StringSubstr(const string &s, int start, int length = -1) {
  if (start < 0 || start >= (int)s.size()) return "";
  return length < 0 ? s.substr(start) : s.substr(start, length);
}
inline int StringFind(const string &s, const string &what, int start = 0) {
  if (start < 0) start = 0;
  size_t p = s.find(what, start);
  return p == string::npos ? -1 : (int)p;
}
inline ushort StringGetCharacter(const string &s, int pos) {
  return pos >= 0 && pos < (int)s.size() ? (ushort)(uchar)s[pos] : 0;
}
inline string ShortToString(ushort c) {
  string out;
  if (c < 0x80) out += (char)c;
  else if (c < 0x800) { out += (char)(0xC0 | (c >> 6)); out += (char)(0x80 | (c & 0x3F)); }
  else { out += (char)(0xE0 | (c >> 12)); out += (char)(0x80 | ((c >> 6) & 0x3F)); out += (char)(0x80 | (c & 0x3F)); }
  return out;
}
inline string IntegerToString(long v) { return std::to_string(v); }
inline string DoubleToString(double v, int digits = 8) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
inline double StringToDouble(const string &s) { return std::strtod(s.c_str(), nullptr); }
inline long StringToInteger(const string &s) { return std::strtol(s.c_str(), nullptr, 10); }
inline string StringToUpper_(string s) { for (auto &c : s) c = (char)std::toupper((uchar)c); return s; }
inline bool StringToUpper(string &s) { s = StringToUpper_(s); return true; }
inline string TimeToString(datetime t, int = 0) {
  std::time_t tt = (std::time_t)t;
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y.%m.%d %H:%M:%S", &tm);
  return buf;
}
// MQL5 copies the terminating zero with WHOLE_ARRAY, as MetaTrader does.
inline int StringToCharArray(const string &s, std::vector<char> &a, int start = 0, int count = -1, uint = CP_ACP) {
  std::vector<char> bytes(s.begin(), s.end());
  bytes.push_back('\0');
  if (count >= 0 && count < (int)bytes.size()) bytes.resize(count);
  if ((int)a.size() < start + (int)bytes.size()) a.resize(start + bytes.size());
  std::copy(bytes.begin(), bytes.end(), a.begin() + start);
  return (int)bytes.size();
}
inline string CharArrayToString(const std::vector<char> &a, int start = 0, int count = -1, uint = CP_ACP) {
  if (start >= (int)a.size()) return "";
  int end = count < 0 ? (int)a.size() : std::min((int)a.size(), start + count);
  string s(a.begin() + start, a.begin() + end);
  size_t zero = s.find('\0');
  return zero == string::npos ? s : s.substr(0, zero);
}

// ---- logging -----------------------------------------------------------------------------------
inline void mql_out(std::ostringstream &) {}
template <typename T, typename... R> void mql_out(std::ostringstream &o, const T &v, const R &...rest) {
  o << v;
  mql_out(o, rest...);
}
template <typename... A> void Print(const A &...args) {
  std::ostringstream o;
  mql_out(o, args...);
  std::cout << o.str() << std::endl;
}
inline string &sim_chart_comment() { static string c; return c; }
template <typename... A> void Comment(const A &...args) {
  std::ostringstream o;
  mql_out(o, args...);
  sim_chart_comment() = o.str();
}

// ---- timer -------------------------------------------------------------------------------------
inline int &sim_timer_seconds() { static int s = 0; return s; }
inline bool EventSetTimer(int seconds) { sim_timer_seconds() = seconds; return true; }
inline void EventKillTimer() { sim_timer_seconds() = 0; }

// ---- the simulated terminal --------------------------------------------------------------------
struct SimPosition {
  ulong ticket = 0, identifier = 0;
  string symbol;
  int type = 0;  // 0 buy, 1 sell
  double volume = 0, price_open = 0, price_current = 0, sl = 0, tp = 0, profit = 0, swap = 0;
  datetime time = 0;
  long magic = 0;
  string comment;
};
struct SimDeal {
  ulong ticket = 0, order = 0, position_id = 0;
  datetime time = 0;
  int type = 0, entry = 0;
  string symbol;
  double volume = 0, price = 0, commission = 0, fee = 0, swap = 0, profit = 0;
  long magic = 0;
  string comment;
};
struct SimSymbol {
  string name;
  double bid = 0, ask = 0;
  int filling = 1;  // SYMBOL_FILLING_FOK
};
struct SimRefusal {
  string kind;  // modify | close | open
  ulong identifier = 0;
  uint retcode = 0;
  string comment;
};
struct SimTerminal {
  long login = 0;
  string server, currency = "USD";
  long leverage = 100;
  double balance = 0, equity = 0, margin = 0, free_margin = 0;
  std::vector<SimPosition> positions;
  std::vector<SimDeal> deals;
  std::vector<SimSymbol> symbols;
  std::vector<SimRefusal> refusals;
  std::vector<string> allowed_urls;  // Tools > Options > Expert Advisors > Allow WebRequest
  ulong next_ticket = 1000000;
  // selection state
  int selected_position = -1;
  std::vector<int> history;  // indexes of deals selected by HistorySelect
};
inline SimTerminal &sim() { static SimTerminal t; return t; }

// ---- account -----------------------------------------------------------------------------------
enum ENUM_ACCOUNT_INFO_INTEGER { ACCOUNT_LOGIN, ACCOUNT_LEVERAGE };
enum ENUM_ACCOUNT_INFO_DOUBLE { ACCOUNT_BALANCE, ACCOUNT_EQUITY, ACCOUNT_MARGIN, ACCOUNT_MARGIN_FREE };
enum ENUM_ACCOUNT_INFO_STRING { ACCOUNT_SERVER, ACCOUNT_CURRENCY };
inline long AccountInfoInteger(ENUM_ACCOUNT_INFO_INTEGER p) { return p == ACCOUNT_LOGIN ? sim().login : sim().leverage; }
inline double AccountInfoDouble(ENUM_ACCOUNT_INFO_DOUBLE p) {
  switch (p) {
    case ACCOUNT_BALANCE: return sim().balance;
    case ACCOUNT_EQUITY: return sim().equity;
    case ACCOUNT_MARGIN: return sim().margin;
    default: return sim().free_margin;
  }
}
inline string AccountInfoString(ENUM_ACCOUNT_INFO_STRING p) { return p == ACCOUNT_SERVER ? sim().server : sim().currency; }

// ---- symbols -----------------------------------------------------------------------------------
enum ENUM_SYMBOL_INFO_DOUBLE { SYMBOL_BID, SYMBOL_ASK };
enum ENUM_SYMBOL_INFO_INTEGER { SYMBOL_FILLING_MODE };
const int SYMBOL_FILLING_FOK = 1;
const int SYMBOL_FILLING_IOC = 2;
inline SimSymbol *sim_symbol(const string &name) {
  for (auto &s : sim().symbols) if (s.name == name) return &s;
  return nullptr;
}
inline double SymbolInfoDouble(const string &name, ENUM_SYMBOL_INFO_DOUBLE p) {
  SimSymbol *s = sim_symbol(name);
  if (!s) { mql_last_error() = 4301; return 0; }
  return p == SYMBOL_BID ? s->bid : s->ask;
}
inline long SymbolInfoInteger(const string &name, ENUM_SYMBOL_INFO_INTEGER) {
  SimSymbol *s = sim_symbol(name);
  return s ? s->filling : 0;
}
inline int SymbolsTotal(bool) { return (int)sim().symbols.size(); }
inline string SymbolName(int i, bool) { return i >= 0 && i < (int)sim().symbols.size() ? sim().symbols[i].name : ""; }
inline bool SymbolSelect(const string &name, bool) { return sim_symbol(name) != nullptr; }

// ---- positions ---------------------------------------------------------------------------------
enum ENUM_POSITION_PROPERTY_INTEGER { POSITION_TICKET, POSITION_IDENTIFIER, POSITION_TIME, POSITION_TYPE, POSITION_MAGIC };
enum ENUM_POSITION_PROPERTY_DOUBLE { POSITION_VOLUME, POSITION_PRICE_OPEN, POSITION_PRICE_CURRENT, POSITION_SL, POSITION_TP, POSITION_PROFIT, POSITION_SWAP };
enum ENUM_POSITION_PROPERTY_STRING { POSITION_SYMBOL, POSITION_COMMENT };
enum ENUM_POSITION_TYPE { POSITION_TYPE_BUY = 0, POSITION_TYPE_SELL = 1 };
inline int PositionsTotal() { return (int)sim().positions.size(); }
inline ulong PositionGetTicket(int index) {
  if (index < 0 || index >= (int)sim().positions.size()) { sim().selected_position = -1; mql_last_error() = 4003; return 0; }
  sim().selected_position = index;
  return sim().positions[index].ticket;
}
inline bool PositionSelectByTicket(ulong ticket) {
  for (size_t i = 0; i < sim().positions.size(); i++)
    if (sim().positions[i].ticket == ticket) { sim().selected_position = (int)i; return true; }
  sim().selected_position = -1;
  mql_last_error() = 4753;
  return false;
}
inline const SimPosition *sim_selected() {
  int i = sim().selected_position;
  return i >= 0 && i < (int)sim().positions.size() ? &sim().positions[i] : nullptr;
}
inline long PositionGetInteger(ENUM_POSITION_PROPERTY_INTEGER p) {
  const SimPosition *s = sim_selected();
  if (!s) return 0;
  switch (p) {
    case POSITION_TICKET: return (long)s->ticket;
    case POSITION_IDENTIFIER: return (long)s->identifier;
    case POSITION_TIME: return s->time;
    case POSITION_TYPE: return s->type;
    default: return s->magic;
  }
}
inline double PositionGetDouble(ENUM_POSITION_PROPERTY_DOUBLE p) {
  const SimPosition *s = sim_selected();
  if (!s) return 0;
  switch (p) {
    case POSITION_VOLUME: return s->volume;
    case POSITION_PRICE_OPEN: return s->price_open;
    case POSITION_PRICE_CURRENT: return s->price_current;
    case POSITION_SL: return s->sl;
    case POSITION_TP: return s->tp;
    case POSITION_PROFIT: return s->profit;
    default: return s->swap;
  }
}
inline string PositionGetString(ENUM_POSITION_PROPERTY_STRING p) {
  const SimPosition *s = sim_selected();
  if (!s) return "";
  return p == POSITION_SYMBOL ? s->symbol : s->comment;
}

// ---- deal history ------------------------------------------------------------------------------
enum ENUM_DEAL_PROPERTY_INTEGER { DEAL_TICKET, DEAL_ORDER, DEAL_TIME, DEAL_TYPE, DEAL_ENTRY, DEAL_POSITION_ID, DEAL_MAGIC };
enum ENUM_DEAL_PROPERTY_DOUBLE { DEAL_VOLUME, DEAL_PRICE, DEAL_COMMISSION, DEAL_FEE, DEAL_SWAP, DEAL_PROFIT };
enum ENUM_DEAL_PROPERTY_STRING { DEAL_SYMBOL, DEAL_COMMENT };
enum ENUM_DEAL_ENTRY { DEAL_ENTRY_IN = 0, DEAL_ENTRY_OUT = 1, DEAL_ENTRY_INOUT = 2, DEAL_ENTRY_OUT_BY = 3 };
inline bool HistorySelect(datetime from, datetime to) {
  sim().history.clear();
  std::vector<int> idx;
  for (size_t i = 0; i < sim().deals.size(); i++)
    if (sim().deals[i].time >= from && sim().deals[i].time <= to) idx.push_back((int)i);
  std::stable_sort(idx.begin(), idx.end(), [](int a, int b) { return sim().deals[a].time < sim().deals[b].time; });
  sim().history = idx;
  return true;
}
inline int HistoryDealsTotal() { return (int)sim().history.size(); }
inline ulong HistoryDealGetTicket(int index) {
  if (index < 0 || index >= (int)sim().history.size()) return 0;
  return sim().deals[sim().history[index]].ticket;
}
inline const SimDeal *sim_deal(ulong ticket) {
  for (int i : sim().history) if (sim().deals[i].ticket == ticket) return &sim().deals[i];
  mql_last_error() = 4755;
  return nullptr;
}
inline long HistoryDealGetInteger(ulong ticket, ENUM_DEAL_PROPERTY_INTEGER p) {
  const SimDeal *d = sim_deal(ticket);
  if (!d) return 0;
  switch (p) {
    case DEAL_TICKET: return (long)d->ticket;
    case DEAL_ORDER: return (long)d->order;
    case DEAL_TIME: return d->time;
    case DEAL_TYPE: return d->type;
    case DEAL_ENTRY: return d->entry;
    case DEAL_POSITION_ID: return (long)d->position_id;
    default: return d->magic;
  }
}
inline double HistoryDealGetDouble(ulong ticket, ENUM_DEAL_PROPERTY_DOUBLE p) {
  const SimDeal *d = sim_deal(ticket);
  if (!d) return 0;
  switch (p) {
    case DEAL_VOLUME: return d->volume;
    case DEAL_PRICE: return d->price;
    case DEAL_COMMISSION: return d->commission;
    case DEAL_FEE: return d->fee;
    case DEAL_SWAP: return d->swap;
    default: return d->profit;
  }
}
inline string HistoryDealGetString(ulong ticket, ENUM_DEAL_PROPERTY_STRING p) {
  const SimDeal *d = sim_deal(ticket);
  if (!d) return "";
  return p == DEAL_SYMBOL ? d->symbol : d->comment;
}

// ---- trading -----------------------------------------------------------------------------------
enum ENUM_TRADE_REQUEST_ACTIONS { TRADE_ACTION_DEAL = 1, TRADE_ACTION_PENDING = 5, TRADE_ACTION_SLTP = 6, TRADE_ACTION_MODIFY = 7, TRADE_ACTION_REMOVE = 8, TRADE_ACTION_CLOSE_BY = 10 };
enum ENUM_ORDER_TYPE { ORDER_TYPE_BUY = 0, ORDER_TYPE_SELL = 1 };
enum ENUM_ORDER_TYPE_FILLING { ORDER_FILLING_FOK = 0, ORDER_FILLING_IOC = 1, ORDER_FILLING_RETURN = 2 };
enum ENUM_ORDER_TYPE_TIME { ORDER_TIME_GTC = 0 };
const uint TRADE_RETCODE_PLACED = 10008;
const uint TRADE_RETCODE_DONE = 10009;
const uint TRADE_RETCODE_DONE_PARTIAL = 10010;
const uint TRADE_RETCODE_INVALID = 10013;
const uint TRADE_RETCODE_POSITION_CLOSED = 10036;

struct MqlTradeRequest {
  ENUM_TRADE_REQUEST_ACTIONS action = (ENUM_TRADE_REQUEST_ACTIONS)0;
  ulong magic = 0, order = 0;
  string symbol;
  double volume = 0, price = 0, stoplimit = 0, sl = 0, tp = 0;
  ulong deviation = 0;
  ENUM_ORDER_TYPE type = ORDER_TYPE_BUY;
  ENUM_ORDER_TYPE_FILLING type_filling = ORDER_FILLING_FOK;
  ENUM_ORDER_TYPE_TIME type_time = ORDER_TIME_GTC;
  datetime expiration = 0;
  string comment;
  ulong position = 0, position_by = 0;
};
struct MqlTradeResult {
  uint retcode = 0;
  ulong deal = 0, order = 0;
  double volume = 0, price = 0, bid = 0, ask = 0;
  string comment;
  uint request_id = 0;
  int retcode_external = 0;
};
struct MqlTradeTransaction {
  ulong deal = 0, order = 0, position = 0;
  string symbol;
  int type = 0;
};

inline bool sim_refuse(const string &kind, ulong identifier, MqlTradeResult &result) {
  for (auto &r : sim().refusals)
    if (r.kind == kind && (r.identifier == 0 || r.identifier == identifier)) {
      result.retcode = r.retcode;
      result.comment = r.comment;
      return true;
    }
  return false;
}
inline SimPosition *sim_position_by_ticket(ulong ticket) {
  for (auto &p : sim().positions) if (p.ticket == ticket) return &p;
  return nullptr;
}
inline void sim_recompute_equity() {
  double floating = 0;
  for (auto &p : sim().positions) floating += p.profit + p.swap;
  sim().equity = sim().balance + floating;
  sim().free_margin = sim().equity - sim().margin;
}
/** A position opened (by the EA or by hand in the terminal) and its in deal, under the position's ticket: the deal. */
inline const SimDeal &sim_open_position(const SimPosition &p) {
  SimTerminal &t = sim();
  t.positions.push_back(p);
  SimDeal d;
  d.ticket = t.next_ticket++;
  d.order = p.ticket;
  d.position_id = p.identifier;
  d.time = p.time;
  d.type = p.type;
  d.entry = DEAL_ENTRY_IN;
  d.symbol = p.symbol;
  d.volume = p.volume;
  d.price = p.price_open;
  d.magic = p.magic;
  d.comment = p.comment;
  t.deals.push_back(d);
  return t.deals.back();
}

/** The trade server: applies SL/TP edits, closes (whole or part) and opens at market. */
inline bool OrderSend(const MqlTradeRequest &request, MqlTradeResult &result) {
  ZeroMemory(result);
  SimTerminal &t = sim();
  if (request.action == TRADE_ACTION_SLTP) {
    SimPosition *p = sim_position_by_ticket(request.position);
    if (!p) { result.retcode = TRADE_RETCODE_POSITION_CLOSED; result.comment = "Position doesn't exist"; return false; }
    if (sim_refuse("modify", p->identifier, result)) return false;
    p->sl = request.sl;
    p->tp = request.tp;
    result.retcode = TRADE_RETCODE_DONE;
    result.comment = "Request executed";
    return true;
  }
  if (request.action == TRADE_ACTION_DEAL && request.position != 0) {
    SimPosition *p = sim_position_by_ticket(request.position);
    if (!p) { result.retcode = TRADE_RETCODE_POSITION_CLOSED; result.comment = "Position doesn't exist"; return false; }
    if (sim_refuse("close", p->identifier, result)) return false;
    if (request.volume <= 0 || request.volume > p->volume + 1e-9) { result.retcode = 10014; result.comment = "Invalid volume"; return false; }
    double share = request.volume / p->volume;
    SimDeal d;
    d.ticket = t.next_ticket++;
    d.order = d.ticket;
    d.position_id = p->identifier;
    d.time = TimeTradeServer();
    d.type = p->type == 0 ? 1 : 0;
    d.entry = DEAL_ENTRY_OUT;
    d.symbol = p->symbol;
    d.volume = request.volume;
    d.price = p->price_current;
    d.profit = std::round(p->profit * share * 100) / 100;
    d.swap = std::round(p->swap * share * 100) / 100;
    d.comment = request.comment;
    t.deals.push_back(d);
    t.balance += d.profit + d.swap;
    if (share >= 1 - 1e-9) {
      t.positions.erase(t.positions.begin() + (p - t.positions.data()));
    } else {
      p->volume -= request.volume;
      p->profit -= d.profit;
      p->swap -= d.swap;
    }
    sim_recompute_equity();
    result.retcode = TRADE_RETCODE_DONE;
    result.deal = d.ticket;
    result.order = d.order;
    result.volume = d.volume;
    result.price = d.price;
    result.comment = "Request executed";
    return true;
  }
  if (request.action == TRADE_ACTION_DEAL) {
    if (sim_refuse("open", 0, result)) return false;
    SimSymbol *s = sim_symbol(request.symbol);
    if (!s) { result.retcode = 10013; result.comment = "Invalid request"; return false; }
    SimPosition p;
    p.ticket = p.identifier = t.next_ticket++;
    p.symbol = request.symbol;
    p.type = request.type == ORDER_TYPE_BUY ? 0 : 1;
    p.volume = request.volume;
    p.price_open = p.price_current = p.type == 0 ? s->ask : s->bid;
    p.sl = request.sl;
    p.tp = request.tp;
    p.time = TimeTradeServer();
    p.magic = (long)request.magic;
    p.comment = request.comment;
    const SimDeal &d = sim_open_position(p);
    result.retcode = TRADE_RETCODE_DONE;
    result.deal = d.ticket;
    result.order = p.ticket;
    result.volume = p.volume;
    result.price = p.price_open;
    result.comment = "Request executed";
    return true;
  }
  result.retcode = TRADE_RETCODE_INVALID;
  result.comment = "Invalid request";
  return false;
}

// ---- WebRequest: real HTTP/1.1 over TCP --------------------------------------------------------
inline bool sim_url_allowed(const string &url) {
  for (auto &a : sim().allowed_urls)
    if (url.compare(0, a.size(), a) == 0) return true;
  return false;
}

inline int WebRequest(const string &method, const string &url, const string &headers, int timeout,
                      const std::vector<char> &data, std::vector<char> &result, string &result_headers) {
  result.clear();
  result_headers.clear();
  if (!sim_url_allowed(url)) { mql_last_error() = 4014; return -1; }
  if (url.compare(0, 7, "http://") != 0) { mql_last_error() = 5200; return -1; }
  string rest = url.substr(7);
  size_t slash = rest.find('/');
  string hostport = slash == string::npos ? rest : rest.substr(0, slash);
  string path = slash == string::npos ? "/" : rest.substr(slash);
  string host = hostport;
  string port = "80";
  size_t colon = hostport.rfind(':');
  if (colon != string::npos) { host = hostport.substr(0, colon); port = hostport.substr(colon + 1); }
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || !res) { mql_last_error() = 5200; return -1; }
  int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
  timeval tv{timeout / 1000, (timeout % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
    freeaddrinfo(res);
    close(fd);
    mql_last_error() = 5201;
    return -1;
  }
  freeaddrinfo(res);
  std::ostringstream req;
  req << method << " " << path << " HTTP/1.1\r\nHost: " << hostport << "\r\nConnection: close\r\n";
  req << "User-Agent: MetaTrader 5 Terminal/5.0 (simulated)\r\n";
  req << headers;
  if (!headers.empty() && headers.substr(headers.size() - 2) != "\r\n") req << "\r\n";
  if (method != "GET" || !data.empty()) req << "Content-Length: " << data.size() << "\r\n";
  req << "\r\n";
  string head = req.str();
  string all = head + string(data.begin(), data.end());
  size_t sent = 0;
  while (sent < all.size()) {
    ssize_t n = send(fd, all.data() + sent, all.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) { close(fd); mql_last_error() = 5203; return -1; }
    sent += (size_t)n;
  }
  string response;
  char buf[8192];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n == 0) break;
    if (n < 0) { close(fd); mql_last_error() = errno == EAGAIN || errno == EWOULDBLOCK ? 5202 : 5203; return -1; }
    response.append(buf, (size_t)n);
  }
  close(fd);
  size_t end = response.find("\r\n\r\n");
  if (end == string::npos || response.compare(0, 5, "HTTP/") != 0) { mql_last_error() = 5203; return -1; }
  result_headers = response.substr(0, end + 2);
  int status = std::atoi(response.c_str() + response.find(' ') + 1);
  string body = response.substr(end + 4);
  string lower = result_headers;
  for (auto &c : lower) c = (char)std::tolower((uchar)c);
  if (lower.find("transfer-encoding: chunked") != string::npos) {
    string out;
    size_t pos = 0;
    for (;;) {
      size_t eol = body.find("\r\n", pos);
      if (eol == string::npos) break;
      size_t size = std::strtoul(body.substr(pos, eol - pos).c_str(), nullptr, 16);
      if (size == 0) break;
      out += body.substr(eol + 2, size);
      pos = eol + 2 + size + 2;
    }
    body = out;
  }
  result.assign(body.begin(), body.end());
  return status;
}

// ---- late additions ----------------------------------------------------------------------------
const int TIME_DATE = 1;
const int TIME_MINUTES = 2;
const int TIME_SECONDS = 4;
inline int StringReplace(string &s, const string &find, const string &replacement) {
  if (find.empty()) return 0;
  int n = 0;
  size_t pos = 0;
  while ((pos = s.find(find, pos)) != string::npos) {
    s.replace(pos, find.size(), replacement);
    pos += replacement.size();
    n++;
  }
  return n;
}
