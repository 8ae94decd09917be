// A small MQL5 runtime in C++17 over a simulated MetaTrader 5 terminal, so that ea/CopyMonitor.mq5
// compiles with g++ and runs end to end against the real server (tests/ea/ea.test.ts).
//
// Only what the EA uses is here, kept to what the MQL5 reference says of each function; where this
// file had to guess (the reference is silent), the comment says "guess". Where the two languages
// differ, this header bridges them:
//  - `string` is MQL's: UTF-16 (StringLen counts UTF-16 units, StringGetCharacter returns one),
//    converted to and from UTF-8 only by StringToCharArray/CharArrayToString with CP_UTF8, Print,
//    and the driver's files;
//  - `datetime` is unsigned and 8 bytes, as in MQL5 (so `t < 0` is never true, and g++ says so);
//  - `input` is a no-op macro (inputs become globals the driver sets), except when CM_CONST_INPUTS
//    is defined: then it is `const`, as MQL5 makes an input, and an EA that assigns one does not
//    compile (tests/ea/ea-compile.test.ts builds it so);
//  - the MQL5 dynamic arrays the EA declares through CM_BYTES/CM_LONGS are std::vectors,
//    MqlTradeRequest/MqlTradeResult are plain structs;
//  - WebRequest is real HTTP/1.1 over TCP (http:// only).
// The terminal (account, connection, positions, deals, symbols, refusals) is loaded from and saved to
// a small text file by the driver (tests/ea/driver.cpp, driver-common.h).
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
#ifdef CM_CONST_INPUTS
#define input const
#define sinput const
#else
#define input
#define sinput
#endif
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef ulong datetime;  // MQL5: 8 bytes, seconds since 1970, unsigned
#define CM_BYTES(name) std::vector<char> name
#define CM_LONGS(name) std::vector<long> name

const int WHOLE_ARRAY = -1;
const uint CP_ACP = 0;
const uint CP_UTF8 = 65001;
const int INIT_SUCCEEDED = 0;
const int INIT_PARAMETERS_INCORRECT = 32767;
const int INIT_FAILED = 1;
const int REASON_PROGRAM = 0;
const int REASON_REMOVE = 1;
const int REASON_PARAMETERS = 5;
const int REASON_ACCOUNT = 6;

template <typename T> int ArraySize(const std::vector<T> &a) { return (int)a.size(); }
template <typename T> int ArrayResize(std::vector<T> &a, int n) { a.resize(n < 0 ? 0 : n); return (int)a.size(); }
template <typename T> void ZeroMemory(T &x) { x = T(); }
inline bool ArraySort(std::vector<long> &a) { std::sort(a.begin(), a.end()); return true; }

// ---- strings: UTF-16, as MQL keeps them --------------------------------------------------------
/** UTF-8 → UTF-16; a byte that does not start or continue a valid sequence becomes U+FFFD. */
inline std::u16string sim_utf16(const std::string &in) {
  std::u16string out;
  size_t i = 0, n = in.size();
  while (i < n) {
    unsigned char c = (unsigned char)in[i];
    unsigned cp = 0xFFFD;
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 1) cp = c;
    else if (len > 1 && i + len <= n) {
      unsigned v = c & (0xFF >> (len + 1));
      bool ok = true;
      for (size_t k = 1; k < len; k++) {
        unsigned char d = (unsigned char)in[i + k];
        if ((d >> 6) != 2) { ok = false; break; }
        v = (v << 6) | (d & 0x3F);
      }
      static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};
      if (ok && v >= min[len] && v <= 0x10FFFF && (v < 0xD800 || v > 0xDFFF)) cp = v;
      else len = ok ? len : 1;
    } else len = 1;
    i += len ? len : 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += (char16_t)(0xD800 + (cp >> 10));
      out += (char16_t)(0xDC00 + (cp & 0x3FF));
    } else out += (char16_t)cp;
  }
  return out;
}
/** UTF-16 → UTF-8; a lone surrogate becomes U+FFFD (guess: what Windows' WideCharToMultiByte does by default). */
inline std::string sim_utf8(const std::u16string &in) {
  std::string out;
  for (size_t i = 0; i < in.size(); i++) {
    unsigned cp = in[i];
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < in.size() && in[i + 1] >= 0xDC00 && in[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (in[i + 1] - 0xDC00);
      i++;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    if (cp < 0x80) out += (char)cp;
    else if (cp < 0x800) { out += (char)(0xC0 | (cp >> 6)); out += (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { out += (char)(0xE0 | (cp >> 12)); out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F)); }
    else {
      out += (char)(0xF0 | (cp >> 18)); out += (char)(0x80 | ((cp >> 12) & 0x3F));
      out += (char)(0x80 | ((cp >> 6) & 0x3F)); out += (char)(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

/** MQL's string: a sequence of UTF-16 units. Literals and the driver's text (UTF-8) convert on the way in. */
class string {
 public:
  std::u16string u;
  string() {}
  string(const char *s) : u(sim_utf16(s ? s : "")) {}
  string(const std::string &s) : u(sim_utf16(s)) {}
  explicit string(std::u16string s) : u(std::move(s)) {}
  std::string utf8() const { return sim_utf8(u); }
  string &operator+=(const string &o) { u += o.u; return *this; }
};
inline string operator+(const string &a, const string &b) { return string(a.u + b.u); }
inline bool operator==(const string &a, const string &b) { return a.u == b.u; }
inline bool operator!=(const string &a, const string &b) { return a.u != b.u; }
inline bool operator<(const string &a, const string &b) { return a.u < b.u; }
inline std::ostream &operator<<(std::ostream &o, const string &s) { return o << s.utf8(); }
inline std::istream &operator>>(std::istream &i, string &s) {
  std::string t;
  i >> t;
  s = string(t);
  return i;
}

inline int StringLen(const string &s) { return (int)s.u.size(); }
inline string StringSubstr(const string &s, int start, int length = -1) {
  if (start < 0 || start >= (int)s.u.size()) return "";
  return string(length < 0 ? s.u.substr(start) : s.u.substr(start, length));
}
inline int StringFind(const string &s, const string &what, int start = 0) {
  if (start < 0) start = 0;
  size_t p = s.u.find(what.u, start);
  return p == std::u16string::npos ? -1 : (int)p;
}
inline ushort StringGetCharacter(const string &s, int pos) { return pos >= 0 && pos < (int)s.u.size() ? (ushort)s.u[pos] : 0; }
inline string ShortToString(ushort c) { return string(std::u16string(1, (char16_t)c)); }
inline string IntegerToString(long v) { return string(std::to_string(v)); }
inline string DoubleToString(double v, int digits = 8) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return string(buf);
}
inline double StringToDouble(const string &s) { return std::strtod(s.utf8().c_str(), nullptr); }
inline long StringToInteger(const string &s) { return std::strtol(s.utf8().c_str(), nullptr, 10); }
inline int StringReplace(string &s, const string &find, const string &replacement) {
  if (find.u.empty()) return 0;
  int n = 0;
  size_t pos = 0;
  while ((pos = s.u.find(find.u, pos)) != std::u16string::npos) {
    s.u.replace(pos, find.u.size(), replacement.u);
    pos += replacement.u.size();
    n++;
  }
  return n;
}
const int TIME_DATE = 1;
const int TIME_MINUTES = 2;
const int TIME_SECONDS = 4;
inline string TimeToString(datetime t, int = TIME_DATE | TIME_MINUTES) {
  std::time_t tt = (std::time_t)t;
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y.%m.%d %H:%M:%S", &tm);
  return string(buf);
}
/** The string's UTF-16 units in `codepage` (CP_UTF8: UTF-8 bytes; CP_ACP: one byte a unit, '?' past Latin-1:
 *  guess for a Western Windows), with the terminating zero for WHOLE_ARRAY, as MetaTrader does. */
inline int StringToCharArray(const string &s, std::vector<char> &a, int start = 0, int count = -1, uint codepage = CP_ACP) {
  std::string bytes;
  if (codepage == CP_UTF8) bytes = s.utf8();
  else for (char16_t c : s.u) bytes += c < 256 ? (char)c : '?';
  std::vector<char> out(bytes.begin(), bytes.end());
  out.push_back('\0');
  if (count >= 0 && count < (int)out.size()) out.resize(count);
  if ((int)a.size() < start + (int)out.size()) a.resize(start + out.size());
  std::copy(out.begin(), out.end(), a.begin() + start);
  return (int)out.size();
}
inline string CharArrayToString(const std::vector<char> &a, int start = 0, int count = -1, uint codepage = CP_ACP) {
  if (start >= (int)a.size()) return "";
  int end = count < 0 ? (int)a.size() : std::min((int)a.size(), start + count);
  std::string s(a.begin() + start, a.begin() + end);
  size_t zero = s.find('\0');
  if (zero != std::string::npos) s = s.substr(0, zero);
  if (codepage == CP_UTF8) return string(s);
  std::u16string u;
  for (unsigned char c : s) u += (char16_t)c;
  return string(u);
}

// ---- errors, time, randomness ------------------------------------------------------------------
inline int &mql_last_error() { static int e = 0; return e; }
inline int GetLastError() { return mql_last_error(); }
inline void ResetLastError() { mql_last_error() = 0; }

struct SimClock {
  long utc_offset_s = 0;     // broker server time − UTC (TimeTradeServer() − TimeGMT())
  long local_offset_s = 0;   // the PC's time zone (TimeLocal() − TimeGMT())
  long pc_skew_s = 0;        // how far this computer's clock is off (TimeGMT comes from it)
  datetime last_tick = 0;    // the market is closed since this broker time (0: quotes come every second)
};
inline SimClock &sim_clock() { static SimClock c; return c; }
inline datetime TimeGMT() { return (datetime)std::time(nullptr) + sim_clock().pc_skew_s; }
/** The trade server's clock now: deals and positions are dated by it (it does not stop on a weekend). */
inline datetime sim_server_time() { return (datetime)std::time(nullptr) + sim_clock().utc_offset_s; }
/** MQL5: the calculated current time of the trade server, from this computer's clock. */
inline datetime TimeTradeServer() { return TimeGMT() + sim_clock().utc_offset_s; }
/** MQL5: the time of the last quote: it stands still while the market is closed (a weekend). */
inline datetime TimeCurrent() { return sim_clock().last_tick != 0 ? sim_clock().last_tick : sim_server_time(); }
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
inline double MathCeil(double v) { return std::ceil(v); }
inline double MathPow(double b, double e) { return std::pow(b, e); }
inline double NormalizeDouble(double v, int digits) {
  double f = std::pow(10.0, digits);
  return std::round(v * f) / f;
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
inline std::string &sim_chart_comment() { static std::string c; return c; }
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
enum ENUM_SYMBOL_TRADE_EXECUTION {
  SYMBOL_TRADE_EXECUTION_REQUEST = 0,
  SYMBOL_TRADE_EXECUTION_INSTANT = 1,
  SYMBOL_TRADE_EXECUTION_MARKET = 2,
  SYMBOL_TRADE_EXECUTION_EXCHANGE = 3,
};
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
  int filling = 1;  // SYMBOL_FILLING_MODE flags: 1 FOK, 2 IOC
  int digits = 5;
  double vol_min = 0.01, vol_max = 100, vol_step = 0.01;
  int stops_level = 0;  // points
  int exemode = SYMBOL_TRADE_EXECUTION_INSTANT;
  double point() const { return std::pow(10.0, -digits); }
};
struct SimRefusal {
  string kind;  // modify | close | open
  ulong identifier = 0;
  uint retcode = 0;
  string comment;
};
/**
 * Where the terminal is in its connection: running (connected, everything loaded); starting (just
 * launched: not connected, the account not known yet, no positions, no history); loading (connected,
 * the account known, positions and history not loaded yet); disconnected (the connection lost: the
 * account and what was loaded stay). Guess: the reference does not say what a terminal shows before
 * it is connected; this is the worst case the EA must survive.
 */
enum SimPhase { SIM_RUNNING, SIM_STARTING, SIM_LOADING, SIM_DISCONNECTED };
struct SimTerminal {
  long login = 0;
  string server, currency = "USD";
  long leverage = 100;
  double balance = 0, equity = 0, margin = 0, free_margin = 0;
  std::vector<SimPosition> positions;
  std::vector<SimDeal> deals;
  std::vector<SimSymbol> symbols;
  std::vector<SimRefusal> refusals;
  std::vector<std::string> allowed_urls;  // Tools > Options > Expert Advisors > Allow WebRequest
  ulong next_ticket = 1000000;
  bool algo_trading = true;   // the Algo Trading button (TERMINAL_TRADE_ALLOWED)
  bool account_trade = true;  // the broker lets this account trade (ACCOUNT_TRADE_ALLOWED)
  // the connection: timer ticks so far, and the ticks at which the terminal connects and loads
  int ticks = 0, connect_at = 0, loaded_at = 0, reconnect_at = 0;
  SimPhase phase = SIM_RUNNING;
  // selection state
  int selected_position = -1;
  std::vector<int> history;  // indexes of deals selected by HistorySelect
};
inline SimTerminal &sim() { static SimTerminal t; return t; }

/** One timer period of the terminal: it connects and loads when its time comes (the driver calls it before OnTimer). */
inline void sim_tick() {
  SimTerminal &t = sim();
  t.ticks++;
  if (t.phase == SIM_STARTING && t.ticks >= t.connect_at) t.phase = SIM_LOADING;
  if (t.phase == SIM_LOADING && t.ticks >= t.loaded_at) t.phase = SIM_RUNNING;
  if (t.phase == SIM_DISCONNECTED && t.ticks >= t.reconnect_at) t.phase = SIM_RUNNING;
}
inline bool sim_connected() { return sim().phase == SIM_RUNNING || sim().phase == SIM_LOADING; }
/** The account is known once the terminal has logged in (not while it is starting). */
inline bool sim_account_known() { return sim().phase != SIM_STARTING; }
/** Positions and history are there once loaded (kept while the connection is lost). */
inline bool sim_loaded() { return sim().phase == SIM_RUNNING || sim().phase == SIM_DISCONNECTED; }

// ---- terminal ----------------------------------------------------------------------------------
enum ENUM_TERMINAL_INFO_INTEGER { TERMINAL_CONNECTED, TERMINAL_TRADE_ALLOWED, TERMINAL_BUILD };
inline long TerminalInfoInteger(ENUM_TERMINAL_INFO_INTEGER p) {
  switch (p) {
    case TERMINAL_CONNECTED: return sim_connected() ? 1 : 0;
    case TERMINAL_TRADE_ALLOWED: return sim().algo_trading ? 1 : 0;
    default: return 4000;
  }
}

// ---- account -----------------------------------------------------------------------------------
enum ENUM_ACCOUNT_INFO_INTEGER { ACCOUNT_LOGIN, ACCOUNT_LEVERAGE, ACCOUNT_TRADE_ALLOWED };
enum ENUM_ACCOUNT_INFO_DOUBLE { ACCOUNT_BALANCE, ACCOUNT_EQUITY, ACCOUNT_MARGIN, ACCOUNT_MARGIN_FREE };
enum ENUM_ACCOUNT_INFO_STRING { ACCOUNT_SERVER, ACCOUNT_CURRENCY };
inline long AccountInfoInteger(ENUM_ACCOUNT_INFO_INTEGER p) {
  if (!sim_account_known()) return 0;
  switch (p) {
    case ACCOUNT_LOGIN: return sim().login;
    case ACCOUNT_LEVERAGE: return sim().leverage;
    default: return sim().account_trade ? 1 : 0;
  }
}
inline double AccountInfoDouble(ENUM_ACCOUNT_INFO_DOUBLE p) {
  if (!sim_account_known()) return 0;
  switch (p) {
    case ACCOUNT_BALANCE: return sim().balance;
    case ACCOUNT_EQUITY: return sim().equity;
    case ACCOUNT_MARGIN: return sim().margin;
    default: return sim().free_margin;
  }
}
inline string AccountInfoString(ENUM_ACCOUNT_INFO_STRING p) {
  if (!sim_account_known()) return "";
  return p == ACCOUNT_SERVER ? sim().server : sim().currency;
}

// ---- symbols -----------------------------------------------------------------------------------
enum ENUM_SYMBOL_INFO_DOUBLE { SYMBOL_BID, SYMBOL_ASK, SYMBOL_POINT, SYMBOL_VOLUME_MIN, SYMBOL_VOLUME_MAX, SYMBOL_VOLUME_STEP };
enum ENUM_SYMBOL_INFO_INTEGER { SYMBOL_FILLING_MODE, SYMBOL_DIGITS, SYMBOL_TRADE_STOPS_LEVEL, SYMBOL_TRADE_EXEMODE };
const int SYMBOL_FILLING_FOK = 1;
const int SYMBOL_FILLING_IOC = 2;
inline SimSymbol *sim_symbol(const string &name) {
  for (auto &s : sim().symbols) if (s.name == name) return &s;
  return nullptr;
}
inline double SymbolInfoDouble(const string &name, ENUM_SYMBOL_INFO_DOUBLE p) {
  SimSymbol *s = sim_symbol(name);
  if (!s) { mql_last_error() = 4301; return 0; }  // ERR_MARKET_UNKNOWN_SYMBOL
  switch (p) {
    case SYMBOL_BID: return s->bid;
    case SYMBOL_ASK: return s->ask;
    case SYMBOL_POINT: return s->point();
    case SYMBOL_VOLUME_MIN: return s->vol_min;
    case SYMBOL_VOLUME_MAX: return s->vol_max;
    default: return s->vol_step;
  }
}
inline long SymbolInfoInteger(const string &name, ENUM_SYMBOL_INFO_INTEGER p) {
  SimSymbol *s = sim_symbol(name);
  if (!s) { mql_last_error() = 4301; return 0; }
  switch (p) {
    case SYMBOL_FILLING_MODE: return s->filling;
    case SYMBOL_DIGITS: return s->digits;
    case SYMBOL_TRADE_STOPS_LEVEL: return s->stops_level;
    default: return s->exemode;
  }
}
inline int SymbolsTotal(bool) { return (int)sim().symbols.size(); }
inline string SymbolName(int i, bool) { return i >= 0 && i < (int)sim().symbols.size() ? sim().symbols[i].name : string(); }
inline bool SymbolSelect(const string &name, bool) { return sim_symbol(name) != nullptr; }

// ---- positions ---------------------------------------------------------------------------------
enum ENUM_POSITION_PROPERTY_INTEGER { POSITION_TICKET, POSITION_IDENTIFIER, POSITION_TIME, POSITION_TYPE, POSITION_MAGIC };
enum ENUM_POSITION_PROPERTY_DOUBLE { POSITION_VOLUME, POSITION_PRICE_OPEN, POSITION_PRICE_CURRENT, POSITION_SL, POSITION_TP, POSITION_PROFIT, POSITION_SWAP };
enum ENUM_POSITION_PROPERTY_STRING { POSITION_SYMBOL, POSITION_COMMENT };
enum ENUM_POSITION_TYPE { POSITION_TYPE_BUY = 0, POSITION_TYPE_SELL = 1 };
inline int PositionsTotal() { return sim_loaded() ? (int)sim().positions.size() : 0; }
inline ulong PositionGetTicket(int index) {
  if (index < 0 || index >= PositionsTotal()) { sim().selected_position = -1; mql_last_error() = 4003; return 0; }
  sim().selected_position = index;
  return sim().positions[index].ticket;
}
inline bool PositionSelectByTicket(ulong ticket) {
  for (int i = 0; i < PositionsTotal(); i++)
    if (sim().positions[i].ticket == ticket) { sim().selected_position = i; return true; }
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
    case POSITION_TIME: return (long)s->time;
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
/**
 * The deals of [from, to] (both included). The reference promises no order for the list: here it is
 * the terminal's own order (as the driver's file has them, trades appended), not sorted by time.
 */
inline bool HistorySelect(datetime from, datetime to) {
  sim().history.clear();
  if (!sim_loaded()) return true;
  for (size_t i = 0; i < sim().deals.size(); i++)
    if (sim().deals[i].time >= from && sim().deals[i].time <= to) sim().history.push_back((int)i);
  return true;
}
/** MQL5: clears the list of deals selected and selects this one deal. */
inline bool HistoryDealSelect(ulong ticket) {
  sim().history.clear();
  for (size_t i = 0; i < sim().deals.size(); i++)
    if (sim().deals[i].ticket == ticket) { sim().history.push_back((int)i); return true; }
  mql_last_error() = 4755;
  return false;
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
    case DEAL_TIME: return (long)d->time;
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

// ---- what the trade server of either terminal checks -------------------------------------------
/** A volume the symbol takes: within [min, max] and a whole number of steps. */
inline bool sim_volume_ok(const SimSymbol &s, double volume) {
  if (volume < s.vol_min - 1e-9 || volume > s.vol_max + 1e-9) return false;
  double steps = volume / s.vol_step;
  return std::fabs(steps - std::round(steps)) < 1e-6;
}
/** A price to the symbol's digits (0: none). */
inline bool sim_price_ok(const SimSymbol &s, double price) {
  double ticks = price / s.point();
  return std::fabs(ticks - std::round(ticks)) < 1e-4;
}
/**
 * Stops a position of `buy` may have: to the symbol's digits and at least the stops level away from the
 * price it closes at (a buy at the bid, a sell at the ask), on the losing side for the SL and the
 * winning side for the TP (the reference's table of SYMBOL_TRADE_STOPS_LEVEL; 0 for none).
 */
inline bool sim_stops_ok(const SimSymbol &s, bool buy, double sl, double tp) {
  if (!sim_price_ok(s, sl) || !sim_price_ok(s, tp)) return false;
  double gap = s.stops_level * s.point() - 1e-9;
  double close = buy ? s.bid : s.ask;
  if (sl != 0 && (buy ? close - sl : sl - close) < gap) return false;
  if (tp != 0 && (buy ? tp - close : close - tp) < gap) return false;
  if (sl != 0 && (buy ? sl >= close : sl <= close)) return false;
  if (tp != 0 && (buy ? tp <= close : tp >= close)) return false;
  return true;
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
const uint TRADE_RETCODE_INVALID_VOLUME = 10014;
const uint TRADE_RETCODE_INVALID_STOPS = 10016;
const uint TRADE_RETCODE_CLIENT_DISABLES_AT = 10027;
const uint TRADE_RETCODE_INVALID_FILL = 10030;
const uint TRADE_RETCODE_CONNECTION = 10031;
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
inline bool sim_fail(MqlTradeResult &result, uint retcode, const char *comment) {
  result.retcode = retcode;
  result.comment = comment;
  return false;
}
/**
 * The filling a symbol takes: FOK and IOC by its SYMBOL_FILLING_MODE flags; RETURN only in Market and
 * Exchange execution (the reference's ENUM_ORDER_TYPE_FILLING); in Request and Instant execution FOK
 * always (guess: the reference says orders there are filled whole at the quoted price).
 */
inline bool sim_filling_ok(const SimSymbol &s, ENUM_ORDER_TYPE_FILLING f) {
  bool market = s.exemode == SYMBOL_TRADE_EXECUTION_MARKET || s.exemode == SYMBOL_TRADE_EXECUTION_EXCHANGE;
  if (f == ORDER_FILLING_FOK) return (s.filling & SYMBOL_FILLING_FOK) != 0 || !market;
  if (f == ORDER_FILLING_IOC) return (s.filling & SYMBOL_FILLING_IOC) != 0;
  return market;
}
inline SimPosition *sim_position_by_ticket(ulong ticket) {
  for (int i = 0; i < PositionsTotal(); i++) if (sim().positions[i].ticket == ticket) return &sim().positions[i];
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

/**
 * The trade server: applies SL/TP edits, closes (whole or part) and opens at market, refusing what a
 * real one refuses: no connection (10031), Algo Trading off (10027), a volume off the symbol's step or
 * outside its min and max (10014), stops not to its digits or inside its stops level (10016), a filling
 * it does not take (10030). The comments are the terminal's words as far as the reference gives them
 * (guess: the exact texts of 10014/10016/10030/10031 are the MetaTrader 5 terminal's as we remember them).
 */
inline bool OrderSend(const MqlTradeRequest &request, MqlTradeResult &result) {
  ZeroMemory(result);
  SimTerminal &t = sim();
  if (!sim_connected()) return sim_fail(result, TRADE_RETCODE_CONNECTION, "No connection with the trade server");
  if (!t.algo_trading) return sim_fail(result, TRADE_RETCODE_CLIENT_DISABLES_AT, "AutoTrading disabled by client");
  if (request.action == TRADE_ACTION_SLTP) {
    SimPosition *p = sim_position_by_ticket(request.position);
    if (!p) return sim_fail(result, TRADE_RETCODE_POSITION_CLOSED, "Position doesn't exist");
    if (sim_refuse("modify", p->identifier, result)) return false;
    SimSymbol *s = sim_symbol(p->symbol);
    if (s && !sim_stops_ok(*s, p->type == 0, request.sl, request.tp)) return sim_fail(result, TRADE_RETCODE_INVALID_STOPS, "Invalid stops");
    p->sl = request.sl;
    p->tp = request.tp;
    result.retcode = TRADE_RETCODE_DONE;
    result.comment = "Request executed";
    return true;
  }
  if (request.action == TRADE_ACTION_DEAL && request.position != 0) {
    SimPosition *p = sim_position_by_ticket(request.position);
    if (!p) return sim_fail(result, TRADE_RETCODE_POSITION_CLOSED, "Position doesn't exist");
    if (sim_refuse("close", p->identifier, result)) return false;
    SimSymbol *s = sim_symbol(p->symbol);
    if (request.volume <= 0 || request.volume > p->volume + 1e-9 || (s && !sim_volume_ok(*s, request.volume) && std::fabs(request.volume - p->volume) > 1e-9))
      return sim_fail(result, TRADE_RETCODE_INVALID_VOLUME, "Invalid volume");
    if (s && !sim_filling_ok(*s, request.type_filling)) return sim_fail(result, TRADE_RETCODE_INVALID_FILL, "Unsupported filling mode");
    double share = request.volume / p->volume;
    SimDeal d;
    d.ticket = t.next_ticket++;
    d.order = d.ticket;
    d.position_id = p->identifier;
    d.time = sim_server_time();
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
      p->volume = std::round((p->volume - request.volume) * 1e8) / 1e8;
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
    if (!s) return sim_fail(result, TRADE_RETCODE_INVALID, "Invalid request");
    bool buy = request.type == ORDER_TYPE_BUY;
    if (!sim_volume_ok(*s, request.volume)) return sim_fail(result, TRADE_RETCODE_INVALID_VOLUME, "Invalid volume");
    if (!sim_stops_ok(*s, buy, request.sl, request.tp)) return sim_fail(result, TRADE_RETCODE_INVALID_STOPS, "Invalid stops");
    if (!sim_filling_ok(*s, request.type_filling)) return sim_fail(result, TRADE_RETCODE_INVALID_FILL, "Unsupported filling mode");
    SimPosition p;
    p.ticket = p.identifier = t.next_ticket++;
    p.symbol = request.symbol;
    p.type = buy ? 0 : 1;
    p.volume = request.volume;
    p.price_open = p.price_current = buy ? s->ask : s->bid;
    p.sl = request.sl;
    p.tp = request.tp;
    p.time = sim_server_time();
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
  return sim_fail(result, TRADE_RETCODE_INVALID, "Invalid request");
}

// ---- WebRequest: real HTTP/1.1 over TCP --------------------------------------------------------
/** The error WebRequest sets for a URL missing from the allow-list: 4014 in MQL5 (mql4.h makes it MQL4's 4060). */
inline int &sim_url_not_allowed_error() { static int e = 4014; return e; }
inline bool sim_url_allowed(const std::string &url) {
  for (auto &a : sim().allowed_urls)
    if (url.compare(0, a.size(), a) == 0) return true;
  return false;
}

inline int WebRequest(const string &method_, const string &url_, const string &headers_, int timeout,
                      const std::vector<char> &data, std::vector<char> &result, string &result_headers) {
  std::string method = method_.utf8(), url = url_.utf8(), headers = headers_.utf8();
  result.clear();
  result_headers = "";
  if (!sim_url_allowed(url)) { mql_last_error() = sim_url_not_allowed_error(); return -1; }
  if (url.compare(0, 7, "http://") != 0) { mql_last_error() = 5200; return -1; }
  std::string rest = url.substr(7);
  size_t slash = rest.find('/');
  std::string hostport = slash == std::string::npos ? rest : rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  std::string host = hostport;
  std::string port = "80";
  size_t colon = hostport.rfind(':');
  if (colon != std::string::npos) { host = hostport.substr(0, colon); port = hostport.substr(colon + 1); }
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
  std::string all = req.str() + std::string(data.begin(), data.end());
  size_t sent = 0;
  while (sent < all.size()) {
    ssize_t n = send(fd, all.data() + sent, all.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) { close(fd); mql_last_error() = 5203; return -1; }
    sent += (size_t)n;
  }
  std::string response;
  char buf[8192];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n == 0) break;
    if (n < 0) { close(fd); mql_last_error() = errno == EAGAIN || errno == EWOULDBLOCK ? 5202 : 5203; return -1; }
    response.append(buf, (size_t)n);
  }
  close(fd);
  size_t end = response.find("\r\n\r\n");
  if (end == std::string::npos || response.compare(0, 5, "HTTP/") != 0) { mql_last_error() = 5203; return -1; }
  std::string head = response.substr(0, end + 2);
  result_headers = string(head);
  int status = std::atoi(response.c_str() + response.find(' ') + 1);
  std::string body = response.substr(end + 4);
  std::string lower = head;
  for (auto &c : lower) c = (char)std::tolower((uchar)c);
  if (lower.find("transfer-encoding: chunked") != std::string::npos) {
    std::string out;
    size_t pos = 0;
    for (;;) {
      size_t eol = body.find("\r\n", pos);
      if (eol == std::string::npos) break;
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
