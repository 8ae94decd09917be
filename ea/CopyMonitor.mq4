//+------------------------------------------------------------------+
//| CopyMonitor.mq4 - terminal agent of the copy-trading monitor      |
//|                   for MetaTrader 4 (build 600 and later)          |
//|                                                                  |
//| Reports this terminal's account (state, open orders, closed       |
//| orders and balance operations) to the monitor over Ingest API v1  |
//| (docs/ingest-api.md) and runs the commands the monitor sends back |
//| (TP/SL edits, closes, copies). Install: docs/ea.md, section       |
//| "MetaTrader 4". Version 1.0.                                      |
//|                                                                  |
//| MT4 has orders, not positions and deals. They are mapped as the   |
//| server's MT4 statement reader maps them (src/shared/statements/   |
//| mt4.ts), so a statement import and this EA agree:                 |
//|  - an open order is a position: identifier = the ticket it was    |
//|    first opened under (a partial close's rest, "from #T", keeps   |
//|    T's identifier), ticket = its own ticket;                      |
//|  - an order's opening is an "in" deal, ticket x 2; its close an   |
//|    "out" deal, ticket x 2 + 1, position_id = that identifier;     |
//|  - a balance operation (history order type 6) is a deal of type 2 |
//|    with ticket x 2, a credit (type 7) a deal of type 3.           |
//|                                                                  |
//| Written in the common subset of MQL4 and C++: the same file is    |
//| compiled by g++ against tests/ea/mql4.h and run end to end        |
//| against the server in tests/ea/ea4.test.ts. The #property lines   |
//| are inside #ifdef __MQL4__, which only MetaEditor defines.        |
//+------------------------------------------------------------------+
#ifdef __MQL4__
#property strict
#property version "1.00"
#property description "Copy-trading monitor agent (Ingest API v1)"
#endif

// MQL4 dynamic arrays (the C++ test harness defines these as std::vector first).
#ifndef CM_BYTES
#define CM_BYTES(name) char name[]
#endif
#ifndef CM_LONGS
#define CM_LONGS(name) long name[]
#endif

input string InpServerUrl   = "https://monitor.example.com"; // Server URL (add it to Tools > Options > Expert Advisors)
input string InpAgentKey    = "";                            // Agent key (shown once by the operator)
input int    InpPushSeconds = 5;                             // Push interval, seconds
input string InpSymbols     = "";                            // Symbols to report, comma-separated (empty: all)
input int    InpTimeoutMs   = 10000;                         // HTTP timeout, milliseconds
input int    InpDeviation   = 20;                            // Slippage allowed for closes and copies, points
input int    InpMagic       = 20261126;                      // Magic number of the copies this EA opens

#define CM_MAX_DEALS 500
#define CM_COPY_PREFIX "cm#"
#define CM_OP_BALANCE 6   // MT4 history order types of balance and credit operations
#define CM_OP_CREDIT 7

//--- the agent's session (docs/ingest-api.md: session, seq, batch_id)
string   g_session = "";
long     g_seq = 0;
bool     g_needSnapshot = true;   // the next batch starts the session: state and every open order
bool     g_historyKnown = false;  // history_from has been read for this session
bool     g_moreDeals = false;     // history is still to be sent (at most 500 deals a batch)
bool     g_dirty = false;         // something traded: push now
datetime g_nextPush = 0;
datetime g_retryAt = 0;
int      g_backoff = 0;
//--- the batch sent and not yet answered: sent again as it is (same batch_id) after a failure
string   g_pending = "";
bool     g_pendingSnapshot = false;
datetime g_pendingCursor = 0;
string   g_pendingTickets = ",";
string   g_pendingSigs = ";";
string   g_pendingOpened = ",";
bool     g_pendingMore = false;
int      g_pendingDeals = 0;
//--- what the server has: history up to the cursor (broker time) and the tickets at that second,
//--- the "in" deals of open orders sent this session, positions as last sent
datetime g_dealCursor = 0;
string   g_cursorTickets = ",";
string   g_opened = ",";
string   g_posSigs = ";";
//--- command answers not yet delivered: "id\tjson\n" lines
string   g_answers = "";
//--- the chart's status line
string   g_status = "starting";
long     g_lastAck = 0;
int      g_commandsRun = 0;
bool     g_skewWarned = false;
bool     g_stopped = false;       // the key was refused (401): nothing more is sent until the EA is attached again
//--- MT4 has no trade event for EAs: the order counts tell that something traded
int      g_lastOpenCount = -1;
int      g_lastHistoryCount = -1;
int      g_utcOffset = 0;         // the last plausible broker clock offset, minutes
bool     g_offsetKnown = false;
datetime g_lastServerTime = 0;   // TimeCurrent() at the last look

//+------------------------------------------------------------------+
//| JSON: the little the protocol needs                              |
//+------------------------------------------------------------------+
string JsonText(const string value)
  {
   string out = "\"";
   int n = StringLen(value);
   for(int i = 0; i < n; i++)
     {
      ushort c = StringGetCharacter(value, i);
      if(c == '"')
         out += "\\\"";
      else
         if(c == '\\')
            out += "\\\\";
         else
            if(c < 32 || c == 127)
               out += " ";   // the server refuses control characters in text
            else
               out += StringSubstr(value, i, 1);
     }
   return out + "\"";
  }

string JsonNum(const double value, const int digits = 8)
  {
   string s = DoubleToString(value, digits);
   if(StringFind(s, ".") >= 0)
     {
      int n = StringLen(s);
      while(n > 0 && StringGetCharacter(s, n - 1) == '0')
         n--;
      if(n > 0 && StringGetCharacter(s, n - 1) == '.')
         n--;
      s = StringSubstr(s, 0, n);
     }
   if(s == "-0" || s == "")
      s = "0";
   return s;
  }

int JsonSkipSpace(const string s, int pos)
  {
   int n = StringLen(s);
   while(pos < n)
     {
      ushort c = StringGetCharacter(s, pos);
      if(c != ' ' && c != '\t' && c != '\r' && c != '\n')
         break;
      pos++;
     }
   return pos;
  }

// The position just after the value that starts at pos.
int JsonValueEnd(const string s, int pos)
  {
   int n = StringLen(s);
   if(pos >= n)
      return n;
   ushort c = StringGetCharacter(s, pos);
   if(c == '"')
     {
      for(int i = pos + 1; i < n; i++)
        {
         ushort d = StringGetCharacter(s, i);
         if(d == '\\')
            i++;
         else
            if(d == '"')
               return i + 1;
        }
      return n;
     }
   if(c == '{' || c == '[')
     {
      int depth = 0;
      for(int i = pos; i < n; i++)
        {
         ushort d = StringGetCharacter(s, i);
         if(d == '"')
           {
            i = JsonValueEnd(s, i) - 1;
            continue;
           }
         if(d == '{' || d == '[')
            depth++;
         if(d == '}' || d == ']')
           {
            depth--;
            if(depth == 0)
               return i + 1;
           }
        }
      return n;
     }
   int i = pos;
   while(i < n)
     {
      ushort d = StringGetCharacter(s, i);
      if(d == ',' || d == '}' || d == ']' || d == ' ' || d == '\r' || d == '\n' || d == '\t')
         break;
      i++;
     }
   return i;
  }

int HexValue(const ushort c)
  {
   if(c >= '0' && c <= '9')
      return c - '0';
   if(c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if(c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return 0;
  }

// The text of a JSON value: a string unescaped, anything else as it stands.
string JsonString(const string raw)
  {
   if(StringLen(raw) < 2 || StringGetCharacter(raw, 0) != '"')
      return raw == "null" ? "" : raw;
   string out = "";
   int n = StringLen(raw) - 1;
   for(int i = 1; i < n; i++)
     {
      ushort c = StringGetCharacter(raw, i);
      if(c != '\\')
        {
         out += StringSubstr(raw, i, 1);
         continue;
        }
      i++;
      ushort e = StringGetCharacter(raw, i);
      if(e == 'n')
         out += "\n";
      else
         if(e == 't')
            out += "\t";
         else
            if(e == 'r')
               out += "\r";
            else
               if(e == 'u' && i + 4 < n)
                 {
                  int code = HexValue(StringGetCharacter(raw, i + 1)) * 4096 + HexValue(StringGetCharacter(raw, i + 2)) * 256 +
                             HexValue(StringGetCharacter(raw, i + 3)) * 16 + HexValue(StringGetCharacter(raw, i + 4));
                  out += ShortToString((ushort)code);
                  i += 4;
                 }
               else
                  out += StringSubstr(raw, i, 1);
     }
   return out;
  }

// The raw value of `key` in the JSON object `obj` (its own members only); "" when absent.
string JsonGet(const string obj, const string key)
  {
   int pos = JsonSkipSpace(obj, 0);
   if(StringGetCharacter(obj, pos) != '{')
      return "";
   pos++;
   int n = StringLen(obj);
   while(pos < n)
     {
      pos = JsonSkipSpace(obj, pos);
      if(StringGetCharacter(obj, pos) != '"')
         return "";
      int keyEnd = JsonValueEnd(obj, pos);
      string name = JsonString(StringSubstr(obj, pos, keyEnd - pos));
      pos = JsonSkipSpace(obj, keyEnd);
      if(StringGetCharacter(obj, pos) != ':')
         return "";
      int start = JsonSkipSpace(obj, pos + 1);
      int end = JsonValueEnd(obj, start);
      if(name == key)
         return StringSubstr(obj, start, end - start);
      pos = JsonSkipSpace(obj, end);
      if(StringGetCharacter(obj, pos) != ',')
         return "";
      pos++;
     }
   return "";
  }

// The index-th item of the JSON array `arr`; "" past its end.
string JsonItem(const string arr, const int index)
  {
   int pos = JsonSkipSpace(arr, 0);
   if(StringGetCharacter(arr, pos) != '[')
      return "";
   pos = JsonSkipSpace(arr, pos + 1);
   int n = StringLen(arr);
   for(int i = 0; pos < n; i++)
     {
      if(StringGetCharacter(arr, pos) == ']')
         return "";
      int end = JsonValueEnd(arr, pos);
      if(i == index)
         return StringSubstr(arr, pos, end - pos);
      pos = JsonSkipSpace(arr, end);
      if(StringGetCharacter(arr, pos) != ',')
         return "";
      pos = JsonSkipSpace(arr, pos + 1);
     }
   return "";
  }

double JsonDouble(const string obj, const string key)
  {
   return StringToDouble(JsonString(JsonGet(obj, key)));
  }

//+------------------------------------------------------------------+
//| Small helpers                                                    |
//+------------------------------------------------------------------+
string NewUuid()
  {
   string hex = "0123456789abcdef";
   string s = "";
   for(int i = 0; i < 32; i++)
     {
      int v = MathRand() % 16;
      if(i == 12)
         v = 4;
      if(i == 16)
         v = 8 + v % 4;
      s += StringSubstr(hex, v, 1);
      if(i == 7 || i == 11 || i == 15 || i == 19)
         s += "-";
     }
   return s;
  }

string BaseUrl()
  {
   string url = InpServerUrl;
   while(StringLen(url) > 0 && StringGetCharacter(url, StringLen(url) - 1) == '/')
      url = StringSubstr(url, 0, StringLen(url) - 1);
   return url;
  }

string Login()
  {
   return IntegerToString(AccountNumber());
  }

string ServerName()
  {
   return AccountServer();
  }

// Broker server time − UTC, in minutes. MT4 has no TimeTradeServer(): TimeCurrent() is the time of
// the last quote, a little behind while quotes come and hours or days behind when the market is
// closed. So the offset is rounded to a quarter of an hour and taken only from a fresh clock (the
// first look, or TimeCurrent() moved since the last one: a quote came) and only within −12 h … +14 h;
// otherwise the last one taken stays.
int UtcOffsetMinutes()
  {
   datetime server = TimeCurrent();
   bool fresh = !g_offsetKnown || (server != g_lastServerTime && g_lastServerTime != 0);
   g_lastServerTime = server;
   long seconds = (long)(server - TimeGMT());
   int minutes = (int)MathRound(seconds / 900.0) * 15;
   if(fresh && minutes >= -720 && minutes <= 840)
     {
      if(g_offsetKnown && minutes != g_utcOffset)
         Print("CopyMonitor: the broker's clock is now UTC", minutes >= 0 ? "+" : "", DoubleToString(minutes / 60.0, 2));
      g_utcOffset = minutes;
      g_offsetKnown = true;
     }
   return g_utcOffset;
  }

bool SymbolWanted(const string symbol)
  {
   if(InpSymbols == "" || symbol == "")
      return true;
   string list = "," + InpSymbols + ",";
   StringReplace(list, " ", "");
   return StringFind(list, "," + symbol + ",") >= 0;
  }

// The words of MT4's trade errors (MT4 gives a code only; these follow the terminal's own texts).
string ErrorText(const int code)
  {
   switch(code)
     {
      case 0:
         return "no error";
      case 1:
         return "no error, trade conditions not changed";
      case 2:
         return "common error";
      case 3:
         return "invalid trade parameters";
      case 4:
         return "trade server is busy";
      case 6:
         return "no connection with trade server";
      case 8:
         return "too frequent requests";
      case 64:
         return "account disabled";
      case 65:
         return "invalid account";
      case 128:
         return "trade timeout";
      case 129:
         return "invalid price";
      case 130:
         return "invalid stops";
      case 131:
         return "invalid trade volume";
      case 132:
         return "market is closed";
      case 133:
         return "trade is disabled";
      case 134:
         return "not enough money";
      case 135:
         return "price changed";
      case 136:
         return "off quotes";
      case 137:
         return "broker is busy";
      case 138:
         return "requote";
      case 139:
         return "order is locked";
      case 145:
         return "modification denied because order is too close to market";
      case 146:
         return "trade context is busy";
      case 148:
         return "amount of open and pending orders has reached the limit";
      case 4051:
         return "invalid function parameter value";
      case 4106:
         return "unknown symbol";
      case 4108:
         return "invalid ticket";
      case 4109:
         return "trade is not allowed in the expert properties";
      case 4110:
         return "longs are not allowed in the expert properties";
      case 4111:
         return "shorts are not allowed in the expert properties";
     }
   return "error";
  }

// The ticket an order was split from: a partial close leaves the rest under a new ticket commented "from #T".
int SplitFrom(const string comment)
  {
   int at = StringFind(comment, "from #");
   if(at < 0)
      return 0;
   return (int)StringToInteger(StringSubstr(comment, at + 6));
  }

// The first ticket of an order split from another, kept in a terminal global variable
// ("CopyMonitor.<login>.<ticket>", kept by the terminal across restarts): after a second partial close
// MT4's comments no longer lead back (the closed part is commented only "to #…").
string RootName(const long ticket)
  {
   return "CopyMonitor." + Login() + "." + IntegerToString(ticket);
  }

long KnownRoot(const long ticket)
  {
   if(!GlobalVariableCheck(RootName(ticket)))
      return 0;
   return (long)GlobalVariableGet(RootName(ticket));
  }

// The position an order belongs to: the ticket it was first opened under (partial closes followed back).
// Selects other orders on the way: select the order again after calling it.
long RootTicket(const int ticket, const string comment)
  {
   long known = KnownRoot(ticket);
   if(known > 0)
      return known;
   long root = ticket;
   int from = SplitFrom(comment);
   for(int hops = 0; from > 0 && hops < 100; hops++)
     {
      root = from;
      known = KnownRoot(from);
      if(known > 0)
        {
         root = known;
         break;
        }
      if(!OrderSelect(from, SELECT_BY_TICKET))
         break;
      from = SplitFrom(OrderComment());
     }
   if(root != ticket)
      GlobalVariableSet(RootName(ticket), (double)root);
   return root;
  }

void Backoff(const string why)
  {
   g_backoff = g_backoff == 0 ? 1 : (int)MathMin(g_backoff * 2, 60);
   g_retryAt = TimeGMT() + g_backoff;
   g_status = why;
   Print("CopyMonitor: ", why, "; retrying in ", g_backoff, " s");
  }

// A key mistyped or revoked: every call would be refused the same way, so the EA stops sending.
void KeyRefused()
  {
   g_stopped = true;
   g_status = "stopped: the agent key is not accepted (401)";
   Print("CopyMonitor: the agent key is not accepted (401): stopped sending; check InpAgentKey with the operator, then attach the EA again");
  }

void ShowStatus()
  {
   Comment("CopyMonitor ", Login(), "@", ServerName(), "\n", g_status, "\nsession seq ", g_seq, ", ack ", g_lastAck,
           ", commands run ", g_commandsRun);
  }

//+------------------------------------------------------------------+
//| HTTP                                                             |
//+------------------------------------------------------------------+
int HttpCall(const string method, const string path, const string body, string &answer)
  {
   CM_BYTES(data);
   CM_BYTES(result);
   string resultHeaders = "";
   string headers = "x-agent-key: " + InpAgentKey + "\r\n";
   if(body != "")
     {
      headers += "Content-Type: application/json\r\n";
      int n = StringToCharArray(body, data, 0, WHOLE_ARRAY, CP_UTF8);
      ArrayResize(data, n - 1);   // without the terminating zero
     }
   ResetLastError();
   int status = WebRequest(method, BaseUrl() + path, headers, InpTimeoutMs, data, result, resultHeaders);
   answer = "";
   if(status == -1)
     {
      int err = GetLastError();
      if(err == 4014)
         Print("CopyMonitor: WebRequest is not allowed for ", BaseUrl(),
               ": add it in Tools > Options > Expert Advisors > Allow WebRequest for listed URL");
      else
         Print("CopyMonitor: ", method, " ", path, " failed, error ", err);
      return -1;
     }
   answer = CharArrayToString(result, 0, WHOLE_ARRAY, CP_UTF8);
   return status;
  }


//+------------------------------------------------------------------+
//| Reports                                                          |
//+------------------------------------------------------------------+
string StateJson()
  {
   long leverage = AccountLeverage();
   if(leverage < 1)
      leverage = 1;
   double margin = AccountMargin();
   if(margin < 0)
      margin = 0;
   return "{\"balance\":" + JsonNum(AccountBalance(), 2) +
          ",\"equity\":" + JsonNum(AccountEquity(), 2) +
          ",\"margin\":" + JsonNum(margin, 2) +
          ",\"free_margin\":" + JsonNum(AccountFreeMargin(), 2) +
          ",\"leverage\":" + IntegerToString(leverage) +
          ",\"currency\":" + JsonText(AccountCurrency()) + "}";
  }

// A deal as docs/ingest-api.md has it.
string DealJson(const long ticket, const long positionId, const long order, const datetime time, const int type, const string entry,
                const string symbol, const double volume, const double price, const double commission, const double swap,
                const double profit, const string comment)
  {
   return "{\"ticket\":" + IntegerToString(ticket) +
          ",\"position_id\":" + IntegerToString(positionId) +
          ",\"order\":" + IntegerToString(order) +
          ",\"time\":" + IntegerToString((long)time) +
          ",\"type\":" + IntegerToString(type) +
          ",\"entry\":\"" + entry + "\"" +
          ",\"symbol\":" + JsonText(symbol) +
          ",\"volume\":" + JsonNum(volume) +
          ",\"price\":" + JsonNum(price) +
          ",\"commission\":" + JsonNum(commission, 2) +
          ",\"fee\":0" +
          ",\"swap\":" + JsonNum(swap, 2) +
          ",\"profit\":" + JsonNum(profit, 2) +
          ",\"comment\":" + JsonText(StringSubstr(comment, 0, 64)) + "}";
  }

// Open orders (market ones: OP_BUY, OP_SELL) as positions: all of them (full) or those changed since the
// last batch, with those closed since. inDeals: the "in" deals of open orders not sent yet this session
// (at most inLimit of them), their tickets added to opened.
string PositionsJson(const bool full, string &sigs, string &quotes, const int inLimit, string &inDeals, string &opened, int &inCount)
  {
   string open = "";
   string seenQuotes = ",";
   sigs = ";";
   quotes = "";
   inDeals = "";
   inCount = 0;
   int total = OrdersTotal();
   for(int i = 0; i < total; i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_TRADES))
         continue;
      int type = OrderType();
      if(type != OP_BUY && type != OP_SELL)
         continue;   // pending orders are no positions
      string symbol = OrderSymbol();
      if(!SymbolWanted(symbol))
         continue;
      int ticket = OrderTicket();
      double volume = OrderLots();
      double priceOpen = OrderOpenPrice();
      double current = OrderClosePrice();   // an open order's close price is the current one
      double sl = OrderStopLoss();
      double tp = OrderTakeProfit();
      double profit = OrderProfit();
      double swap = OrderSwap();
      double commission = OrderCommission();
      datetime time = OrderOpenTime();
      string comment = OrderComment();
      long id = RootTicket(ticket, comment);
      string sig = JsonNum(volume) + "/" + JsonNum(current) + "/" + JsonNum(sl) + "/" + JsonNum(tp) + "/" + JsonNum(profit, 2) + "/" + JsonNum(swap, 2);
      sigs += IntegerToString(id) + "=" + sig + ";";
      if(StringFind(seenQuotes, "," + symbol + ",") < 0)
        {
         seenQuotes += symbol + ",";
         double bid = MarketInfo(symbol, MODE_BID);
         double ask = MarketInfo(symbol, MODE_ASK);
         if(bid > 0 && ask > 0)
            quotes += (quotes == "" ? "" : ",") + (string)"{\"symbol\":" + JsonText(symbol) + ",\"bid\":" + JsonNum(bid) + ",\"ask\":" + JsonNum(ask) + "}";
        }
      string mark = "," + IntegerToString(ticket) + ",";
      if(inCount < inLimit && StringFind(opened, mark) < 0)
        {
         inDeals += (inDeals == "" ? "" : ",") +
                    DealJson((long)ticket * 2, id, ticket, time, type == OP_SELL ? 1 : 0, "in", symbol, volume, priceOpen, 0, 0, 0, comment);
         opened += IntegerToString(ticket) + ",";
         inCount++;
        }
      if(!full && StringFind(g_posSigs, ";" + IntegerToString(id) + "=" + sig + ";") >= 0)
         continue;
      string item = "{\"identifier\":" + IntegerToString(id) +
                    ",\"ticket\":" + IntegerToString(ticket) +
                    ",\"symbol\":" + JsonText(symbol) +
                    ",\"type\":" + (type == OP_SELL ? "\"sell\"" : "\"buy\"") +
                    ",\"volume\":" + JsonNum(volume) +
                    ",\"price_open\":" + JsonNum(priceOpen) +
                    ",\"price_current\":" + JsonNum(current) +
                    ",\"sl\":" + JsonNum(sl) + ",\"tp\":" + JsonNum(tp) +
                    ",\"profit\":" + JsonNum(profit, 2) + ",\"swap\":" + JsonNum(swap, 2) +
                    ",\"commission\":" + JsonNum(commission, 2) +
                    ",\"time\":" + IntegerToString((long)time) +
                    ",\"comment\":" + JsonText(StringSubstr(comment, 0, 64));
      if(StringFind(comment, CM_COPY_PREFIX) == 0)
         item += ",\"copy_of\":" + IntegerToString(StringToInteger(StringSubstr(comment, StringLen(CM_COPY_PREFIX))));
      open += (open == "" ? "" : ",") + item + "}";
     }
   string closed = "";
   if(!full)
     {
      // every identifier sent before and open no more
      int pos = 1;
      int n = StringLen(g_posSigs);
      while(pos < n)
        {
         int eq = StringFind(g_posSigs, "=", pos);
         int semi = StringFind(g_posSigs, ";", pos);
         if(eq < 0 || semi < 0)
            break;
         string id = StringSubstr(g_posSigs, pos, eq - pos);
         if(StringFind(sigs, ";" + id + "=") < 0)
            closed += (closed == "" ? "" : ",") + id;
         pos = semi + 1;
        }
     }
   string fullText = full ? "true" : "false";
   return "{\"full\":" + fullText + ",\"open\":[" + open + "],\"closed\":[" + closed + "]}";
  }

// When a history order happened for the deal cursor: a closed trade when it closed, a balance operation when booked.
datetime HistoryTime()
  {
   return OrderType() == OP_BUY || OrderType() == OP_SELL ? OrderCloseTime() : OrderOpenTime();
  }

// The history (closed orders, balance and credit operations) after the cursor, oldest first, at most
// CM_MAX_DEALS deals (a closed order is two: its "in" and its "out"); the cursor after them in cursor/tickets.
string DealsJson(datetime &cursor, string &tickets, bool &more, int &count)
  {
   string items = "";
   count = 0;
   more = false;
   cursor = g_dealCursor;
   tickets = g_cursorTickets;
   // The history pool has no set order: (time, ticket) keys of what is due, sorted.
   CM_LONGS(keys);
   int n = 0;
   int total = OrdersHistoryTotal();
   ArrayResize(keys, total);
   for(int i = 0; i < total; i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_HISTORY))
         continue;
      int type = OrderType();
      if(type != OP_BUY && type != OP_SELL && type != CM_OP_BALANCE && type != CM_OP_CREDIT)
         continue;   // cancelled and expired pending orders never traded
      datetime time = HistoryTime();
      if(time < g_dealCursor || (time == g_dealCursor && StringFind(g_cursorTickets, "," + IntegerToString(OrderTicket()) + ",") >= 0))
         continue;
      keys[n] = (long)time * 2147483648 + OrderTicket();
      n++;
     }
   ArrayResize(keys, n);
   if(n > 1)
      ArraySort(keys);
   for(int k = 0; k < n; k++)
     {
      int ticket = (int)(keys[k] % 2147483648);
      if(!OrderSelect(ticket, SELECT_BY_TICKET))
         continue;
      int type = OrderType();
      bool trade = type == OP_BUY || type == OP_SELL;
      if(count + (trade ? 2 : 1) > CM_MAX_DEALS)
        {
         more = true;
         break;
        }
      datetime time = HistoryTime();
      if(time > cursor)
        {
         cursor = time;
         tickets = ",";
        }
      tickets += IntegerToString(ticket) + ",";
      string symbol = OrderSymbol();
      string comment = OrderComment();
      if(!trade)
        {
         // Balance (6): a deposit or a withdrawal by the sign of its profit; credit (7): stored, moves nothing.
         items += (items == "" ? "" : ",") +
                  DealJson((long)ticket * 2, 0, 0, time, type == CM_OP_BALANCE ? 2 : 3, "in", "", 0, 0, 0, 0, OrderProfit(), comment);
         count++;
         continue;
        }
      if(!SymbolWanted(symbol))
         continue;
      datetime openTime = OrderOpenTime();
      double lots = OrderLots();
      double priceOpen = OrderOpenPrice();
      double priceClose = OrderClosePrice();
      double commission = OrderCommission();
      double swap = OrderSwap();
      double profit = OrderProfit();
      long id = RootTicket(ticket, comment);
      // Its "in" deal again, with the lots this ticket closed (a partial close leaves the rest under a new ticket).
      items += (items == "" ? "" : ",") +
               DealJson((long)ticket * 2, id, ticket, openTime, type == OP_SELL ? 1 : 0, "in", symbol, lots, priceOpen, 0, 0, 0, comment) + "," +
               DealJson((long)ticket * 2 + 1, id, ticket, time, type == OP_SELL ? 0 : 1, "out", symbol, lots, priceClose, commission, swap, profit, comment);
      count += 2;
     }
   return items;
  }

void StartSession(const string why)
  {
   g_session = NewUuid();
   g_seq = 0;
   g_needSnapshot = true;
   g_historyKnown = false;
   g_moreDeals = false;
   g_pending = "";
   g_posSigs = ";";
   g_opened = ",";
   Print("CopyMonitor: new session (", why, ")");
  }

// Builds the next batch into g_pending: the session's snapshot first, then what changed.
void BuildBatch()
  {
   bool snapshot = g_needSnapshot;
   g_pendingCursor = g_dealCursor;
   g_pendingTickets = g_cursorTickets;
   g_pendingMore = false;
   g_pendingDeals = 0;
   string deals = "";
   if(!snapshot && g_historyKnown)
      deals = DealsJson(g_pendingCursor, g_pendingTickets, g_pendingMore, g_pendingDeals);
   // The "in" deals of open orders, once the history is caught up with (so history_from never passes history not sent).
   string sigs = ";";
   string quotes = "";
   string inDeals = "";
   int inCount = 0;
   g_pendingOpened = g_opened;
   string positions = PositionsJson(snapshot, sigs, quotes, snapshot || !g_historyKnown || g_pendingMore ? 0 : CM_MAX_DEALS - g_pendingDeals,
                                    inDeals, g_pendingOpened, inCount);
   string account = "{\"login\":" + JsonText(Login()) + ",\"server\":" + JsonText(ServerName()) +
                    ",\"state\":" + StateJson() + ",\"positions\":" + positions;
   if(!snapshot && g_historyKnown)
     {
      if(inDeals != "")
         deals += (deals == "" ? "" : ",") + inDeals;
      g_pendingDeals += inCount;
      account += ",\"deals\":{\"items\":[" + deals + "],\"deleted\":[]}";
     }
   if(quotes != "")
      account += ",\"quotes\":[" + quotes + "]";
   account += "}";
   g_seq++;
   g_pending = "{\"session\":" + JsonText(g_session) +
               ",\"seq\":" + IntegerToString(g_seq) +
               ",\"batch_id\":" + JsonText(NewUuid()) +
               ",\"utc_offset_minutes\":" + IntegerToString(UtcOffsetMinutes()) +
               ",\"sent_at\":" + IntegerToString((long)TimeGMT() * 1000) +
               ",\"accounts\":[" + account + "]}";
   g_pendingSnapshot = snapshot;
   g_pendingSigs = sigs;
  }
bool SendPending()
  {
   string answer = "";
   int status = HttpCall("POST", "/api/ingest/v1/batches", g_pending, answer);
   if(status == 200)
     {
      g_pending = "";
      g_backoff = 0;
      g_lastAck = (long)JsonDouble(answer, "ack");
      if(JsonGet(answer, "resync") == "true")
        {
         StartSession("the server asked for a resync");
         return true;
        }
      if(g_pendingSnapshot)
        {
         // Deals from history_from: the UTC time of the last deal stored (null: none), back to the broker's clock.
         // A day earlier, so a daylight-saving change in between loses nothing: deals sent again change nothing.
         string from = JsonGet(JsonGet(answer, "history_from"), Login() + "@" + ServerName());
         g_dealCursor = 0;
         if(from != "" && from != "null")
            g_dealCursor = (datetime)((long)StringToDouble(from) + UtcOffsetMinutes() * 60 - 86400);
         if(g_dealCursor < 0)
            g_dealCursor = 0;
         g_cursorTickets = ",";
         g_historyKnown = true;
         g_needSnapshot = false;
         g_moreDeals = true;
         Print("CopyMonitor: session started (batch ", g_seq, "), deals from ",
               g_dealCursor == 0 ? "the start of the history" : TimeToString(g_dealCursor, TIME_DATE | TIME_SECONDS));
        }
      else
        {
         g_dealCursor = g_pendingCursor;
         g_cursorTickets = g_pendingTickets;
         g_moreDeals = g_pendingMore;
         if(g_pendingDeals > 0)
            Print("CopyMonitor: batch ", g_seq, " sent ", g_pendingDeals, " deals, ", (long)JsonDouble(JsonGet(answer, "applied"), "deals"),
                  " booked");
        }
      g_posSigs = g_pendingSigs;
      g_opened = g_pendingOpened;
      g_nextPush = TimeGMT() + InpPushSeconds;
      g_status = "last push " + TimeToString(TimeLocal(), TIME_DATE | TIME_SECONDS) + " ok";
      if(JsonGet(answer, "clock_skew_flagged") == "true" && !g_skewWarned)
        {
         g_skewWarned = true;
         Print("CopyMonitor: this computer's clock is ", JsonString(JsonGet(answer, "clock_skew_s")), " s off the server's: set it right");
        }
      return true;
     }
   string message = JsonString(JsonGet(answer, "message"));
   if(status == -1 || status >= 500 || status == 429)
     {
      // No answer: the batch is sent again as it is (the same batch_id is applied once).
      Backoff(status == -1 ? "server unreachable" : "server error " + IntegerToString(status));
      return false;
     }
   // Refused: nothing of it was used up (docs/ingest-api.md), so its seq is taken again by a new batch.
   g_pending = "";
   g_seq--;
   if(status == 409)
     {
      Print("CopyMonitor: batch refused (409): ", message);
      StartSession("a sequence number from the past");
      Backoff("refused (409)");
      return false;
     }
   if(status == 401)
      KeyRefused();
   else
      if(status == 403)
         Backoff("the key is not scoped to " + Login() + "@" + ServerName() + " (403): ask the operator");
      else
         Backoff("batch refused (" + IntegerToString(status) + "): " + message);
   return false;
  }

// Pushes what is due: the snapshot, deals still to send, or the periodic report.
bool Push()
  {
   for(int attempt = 0; attempt < 20; attempt++)
     {
      if(g_pending == "")
        {
         if(!g_needSnapshot && !g_moreDeals && !g_dirty && TimeGMT() < g_nextPush)
            return true;
         g_dirty = false;
         BuildBatch();
        }
      if(!SendPending())
         return false;
      if(!g_needSnapshot && !g_moreDeals && !g_dirty)
         return true;
     }
   return true;
  }

//+------------------------------------------------------------------+

//+------------------------------------------------------------------+
//| Commands                                                         |
//+------------------------------------------------------------------+
// Selects the open order of a position identifier (its ticket, or the rest of it after a partial close); 0 when none.
int FindOrder(const long identifier)
  {
   int total = OrdersTotal();
   for(int i = 0; i < total; i++)
     {
      if(!OrderSelect(i, SELECT_BY_POS, MODE_TRADES))
         continue;
      if(OrderType() != OP_BUY && OrderType() != OP_SELL)
         continue;
      int ticket = OrderTicket();
      if(ticket == identifier || RootTicket(ticket, OrderComment()) == identifier)
        {
         if(OrderSelect(ticket, SELECT_BY_TICKET))
            return ticket;
        }
     }
   return 0;
  }

// The terminal's answer to a trade call, in its own words: "invalid stops [130]".
string Failure(string &message)
  {
   int err = GetLastError();
   message = ErrorText(err) + " [" + IntegerToString(err) + "]";
   if(err == 4108)
      return "not_found";
   return "rejected";
  }

string RunModify(const string payload, string &message)
  {
   long identifier = (long)JsonDouble(payload, "identifier");
   int ticket = FindOrder(identifier);
   if(ticket == 0)
     {
      message = "No open order " + IntegerToString(identifier);
      return "not_found";
     }
   double sl = JsonDouble(payload, "sl");
   double tp = JsonDouble(payload, "tp");
   int digits = (int)MarketInfo(OrderSymbol(), MODE_DIGITS);
   if(digits > 0)
     {
      sl = NormalizeDouble(sl, digits);
      tp = NormalizeDouble(tp, digits);
     }
   if(MathAbs(sl - OrderStopLoss()) < 1e-10 && MathAbs(tp - OrderTakeProfit()) < 1e-10)
     {
      // MT4 answers error 1 to a modification that changes nothing: it is already as asked.
      message = "SL and TP already set on #" + IntegerToString(ticket);
      return "done";
     }
   ResetLastError();
   if(!OrderModify(ticket, OrderOpenPrice(), sl, tp, 0, clrNONE))
      return Failure(message);
   message = "Order #" + IntegerToString(ticket) + " modified";
   return "done";
  }

string RunClose(const string payload, string &message)
  {
   long identifier = (long)JsonDouble(payload, "identifier");
   int ticket = FindOrder(identifier);
   if(ticket == 0)
     {
      message = "No open order " + IntegerToString(identifier);
      return "not_found";
     }
   double volume = JsonDouble(payload, "volume");
   double lots = OrderLots();
   if(volume <= 0 || volume > lots)
      volume = lots;
   string symbol = OrderSymbol();
   bool buy = OrderType() == OP_BUY;
   RefreshRates();
   double price = MarketInfo(symbol, buy ? MODE_BID : MODE_ASK);
   ResetLastError();
   if(!OrderClose(ticket, volume, price, InpDeviation, clrNONE))
      return Failure(message);
   message = "Order #" + IntegerToString(ticket) + " closed " + JsonNum(volume) + " lots at " + JsonNum(price);
   return "done";
  }

// The broker's name of a canonical symbol: the same name, or the first one that starts with it (EURUSD.m).
string BrokerSymbol(const string canonical)
  {
   int total = SymbolsTotal(false);
   for(int i = 0; i < total; i++)
      if(SymbolName(i, false) == canonical)
         return canonical;
   for(int i = 0; i < total; i++)
     {
      string name = SymbolName(i, false);
      if(StringFind(name, canonical) == 0)
         return name;
     }
   return "";
  }

string RunOpen(const string payload, string &message)
  {
   string canonical = JsonString(JsonGet(payload, "symbol"));
   string symbol = BrokerSymbol(canonical);
   if(symbol == "")
     {
      message = "No symbol " + canonical + " in this terminal";
      return "rejected";
     }
   SymbolSelect(symbol, true);
   RefreshRates();
   bool buy = JsonString(JsonGet(payload, "type")) == "buy";
   double price = MarketInfo(symbol, buy ? MODE_ASK : MODE_BID);
   // The master position's identifier rides in the comment and is reported back as copy_of.
   string comment = CM_COPY_PREFIX + IntegerToString((long)JsonDouble(payload, "master_position_id"));
   ResetLastError();
   int ticket = OrderSend(symbol, buy ? OP_BUY : OP_SELL, JsonDouble(payload, "volume"), price, InpDeviation,
                          JsonDouble(payload, "sl"), JsonDouble(payload, "tp"), comment, InpMagic, 0, clrNONE);
   if(ticket < 0)
      return Failure(message);
   message = "Order #" + IntegerToString(ticket) + " opened";
   return "done";
  }
void FlushAnswers()
  {
   while(g_answers != "")
     {
      int eol = StringFind(g_answers, "\n");
      string line = StringSubstr(g_answers, 0, eol);
      int tab = StringFind(line, "\t");
      string id = StringSubstr(line, 0, tab);
      string answer = "";
      int status = HttpCall("POST", "/api/ingest/v1/commands/" + id, StringSubstr(line, tab + 1), answer);
      if(status == -1 || status >= 500 || status == 429)
         return;   // kept: answered on the next timer
      if(status != 200)
         Print("CopyMonitor: the answer to command ", id, " was refused (", status, "): ", JsonString(JsonGet(answer, "message")));
      g_answers = StringSubstr(g_answers, eol + 1);
     }
  }

void RunCommand(const string command)
  {
   string id = JsonString(JsonGet(command, "id"));
   string kind = JsonString(JsonGet(command, "kind"));
   string payload = JsonGet(command, "payload");
   double expiresAt = JsonDouble(command, "expires_at");
   string state = "rejected";
   string message = "";
   if(JsonString(JsonGet(command, "login")) != Login() || JsonString(JsonGet(command, "server")) != ServerName())
     {
      state = "not_found";
      message = "This terminal runs account " + Login() + " on " + ServerName();
     }
   else
      if(expiresAt > 0 && (double)TimeGMT() * 1000.0 > expiresAt)
        {
         state = "expired";
         message = "Received after it expired: not run";
        }
      else
         if(kind == "modify")
            state = RunModify(payload, message);
         else
            if(kind == "close")
               state = RunClose(payload, message);
            else
               if(kind == "open")
                  state = RunOpen(payload, message);
               else
                  message = "Unknown command " + kind;
   g_commandsRun++;
   g_dirty = true;
   Print("CopyMonitor: command ", kind, " ", id, ": ", state, " ", message);
   g_answers += id + "\t{\"state\":" + JsonText(state) + ",\"message\":" + JsonText(StringSubstr(message, 0, 500)) + "}\n";
  }

void PollCommands()
  {
   string answer = "";
   int status = HttpCall("GET", "/api/ingest/v1/commands?wait=0", "", answer);
   if(status == 401)
      KeyRefused();
   if(status != 200)
      return;
   string list = JsonGet(answer, "commands");
   for(int i = 0; ; i++)
     {
      string command = JsonItem(list, i);
      if(command == "")
         break;
      RunCommand(command);
     }
  }


//+------------------------------------------------------------------+
//| Events                                                           |
//+------------------------------------------------------------------+
int OnInit()
  {
   if(StringFind(BaseUrl(), "http") != 0 || InpAgentKey == "")
     {
      Print("CopyMonitor: give the server URL (https://...) and the agent key in the inputs");
      return INIT_PARAMETERS_INCORRECT;
     }
   MathSrand(GetTickCount() ^ (uint)TimeLocal());
   StartSession("start");
   int offset = UtcOffsetMinutes();
   Print("CopyMonitor: reporting ", Login(), " on ", ServerName(), " (", AccountCompany(), ") to ", BaseUrl(), " every ", InpPushSeconds,
         " s; broker clock UTC", offset >= 0 ? "+" : "", DoubleToString(offset / 60.0, 2),
         g_offsetKnown ? "" : " (no recent quote: taken as UTC until one comes)");
   EventSetTimer(1);
   return INIT_SUCCEEDED;
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   Print("CopyMonitor: stopped (reason ", reason, ")");
   Comment("");
  }

// MT4 calls no trade event in an EA: a change in the number of open or closed orders means a trade.
void WatchOrders()
  {
   int open = OrdersTotal();
   int history = OrdersHistoryTotal();
   if((g_lastOpenCount >= 0 && open != g_lastOpenCount) || (g_lastHistoryCount >= 0 && history != g_lastHistoryCount))
      g_dirty = true;
   g_lastOpenCount = open;
   g_lastHistoryCount = history;
  }

void OnTimer()
  {
   if(g_stopped)
     {
      ShowStatus();
      return;
     }
   WatchOrders();
   if(TimeGMT() < g_retryAt)
      return;
   if(Push())
     {
      PollCommands();
      FlushAnswers();
      WatchOrders();
      if(g_dirty)
         Push();
     }
   ShowStatus();
  }

void OnTick()
  {
   WatchOrders();
  }
//+------------------------------------------------------------------+
