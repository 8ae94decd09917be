//+------------------------------------------------------------------+
//| CopyMonitor.mq5 - terminal agent of the copy-trading monitor      |
//|                                                                  |
//| Reports this terminal's account (state, open positions, deals) to |
//| the monitor over Ingest API v1 (docs/ingest-api.md) and runs the  |
//| commands the monitor sends back (TP/SL edits, closes, copies).    |
//| Install: docs/ea.md. Version 1.1.                                 |
//|                                                                  |
//| Written in the common subset of MQL5 and C++: the same file is    |
//| compiled by g++ against tests/ea/mql5.h and run end to end        |
//| against the server in tests/ea (that is why it has no #property   |
//| lines: C++ has no such directive).                               |
//+------------------------------------------------------------------+

// MQL5 dynamic arrays (the C++ test harness defines these as std::vectors first).
#ifndef CM_BYTES
#define CM_BYTES(name) char name[]
#endif
#ifndef CM_LONGS
#define CM_LONGS(name) long name[]
#endif

input string InpServerUrl     = "https://monitor.example.com"; // Server URL (add it to Tools > Options > Expert Advisors)
input string InpAgentKey      = "";                            // Agent key (shown once by the operator)
input int    InpPushSeconds   = 5;                             // Push interval, seconds
input string InpSymbols       = "";                            // Symbols to report, comma-separated (empty: all)
input int    InpTimeoutMs     = 10000;                         // HTTP timeout, milliseconds
input int    InpDeviation     = 20;                            // Slippage allowed for closes and copies, points
input long   InpMagic         = 20261126;                      // Magic number of the copies this EA opens
input int    InpSettleSeconds = 3;                             // Wait after the terminal connects before the first full snapshot, seconds

#define CM_MAX_DEALS 500
#define CM_MAX_POSITIONS 500    // open positions a batch may carry, and closed ones (the rest go in the next)
#define CM_MAX_QUOTES 500       // quotes a batch may carry
#define CM_MAX_DROPPED 50       // items a batch's `dropped` may carry
#define CM_HOLD_SECONDS 300     // an account's part the server refused as a whole waits this long before it is sent again
#define CM_COPY_PREFIX "cm#"
#define CM_ERR_URL_NOT_ALLOWED 4014   // WebRequest: the URL is not in Tools > Options > Expert Advisors (MQL4 says 4060)
#define CM_BATCH_SNAPSHOT 1     // state and every open position: the session's (or a reconnection's) first
#define CM_BATCH_CHANGES 2      // state, the positions changed or closed, the next deals
#define CM_BATCH_STATE 3        // state only: the terminal is not connected, or not settled yet
#define CM_BATCH_EMPTY 4        // no account: its part is held back (refused as a whole)

//--- the agent's session (docs/ingest-api.md: session, seq, batch_id)
string   g_session = "";
long     g_seq = 0;
bool     g_needSnapshot = true;   // a full snapshot is due: at the session's start, and after the terminal reconnects
bool     g_historyKnown = false;  // history_from has been read for this session
bool     g_moreDeals = false;     // deals are still to be sent (at most 500 a batch)
bool     g_morePositions = false; // positions are still to be sent (at most 500 open and 500 closed a batch)
bool     g_dirty = false;         // something traded: push now
datetime g_nextPush = 0;
datetime g_retryAt = 0;
int      g_backoff = 0;
//--- the terminal: since when it has been connected with its account known (0: it is not)
datetime g_readySince = 0;
int      g_connection = 0;        // what the log last said: 0 nothing yet, 1 not connected, 2 connected
//--- the batch sent and not yet answered: sent again as it is (same batch_id) after a failure
string   g_pending = "";
int      g_pendingKind = 0;
datetime g_pendingCursor = 0;
string   g_pendingTickets = ",";
string   g_pendingSigs = ";";
bool     g_pendingMore = false;
int      g_pendingDeals = 0;
int      g_pendingDropped = 0;    // how many of g_dropped it carries
//--- what the server has: deals up to the cursor (broker time) and the tickets at that second, positions as last sent
datetime g_dealCursor = 0;
string   g_cursorTickets = ",";
string   g_posSigs = ";";
//--- what the server refused (400) and the EA leaves out: deal tickets, position identifiers, the state, the quotes,
//--- the account's whole part until g_heldUntil; g_dropped: "{item,reason}\n" lines not reported yet
string   g_skipDeals = ",";
string   g_skipPositions = ",";
bool     g_skipState = false;
bool     g_skipQuotes = false;
datetime g_heldUntil = 0;
string   g_heldReason = "";
string   g_dropped = "";
//--- command answers not yet delivered: "id\tjson\n" lines
string   g_answers = "";
long     g_openedIdentifier = 0;  // the position an `open` just opened
//--- the chart's status line
string   g_status = "starting";
long     g_lastAck = 0;
int      g_commandsRun = 0;
bool     g_skewWarned = false;
bool     g_stopped = false;       // the key was refused (401): nothing more is sent until the EA is initialised again

//+------------------------------------------------------------------+
//| JSON: the little the protocol needs                              |
//+------------------------------------------------------------------+
// A JSON string of `value`. The server refuses control characters (C0, DEL, C1) and lone surrogates:
// they go as a space and as U+FFFD.
string JsonText(const string value)
  {
   string out = "\"";
   int n = StringLen(value);
   for(int i = 0; i < n; i++)
     {
      ushort c = StringGetCharacter(value, i);
      ushort next = i + 1 < n ? StringGetCharacter(value, i + 1) : 0;
      if(c == '"')
         out += "\\\"";
      else
         if(c == '\\')
            out += "\\\\";
         else
            if(c < 32 || (c >= 127 && c <= 159))
               out += " ";
            else
               if(c >= 0xD800 && c <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF)
                 {
                  out += StringSubstr(value, i, 2);   // a character past U+FFFF: a surrogate pair
                  i++;
                 }
               else
                  if(c >= 0xD800 && c <= 0xDFFF)
                     out += ShortToString(0xFFFD);
                  else
                     out += StringSubstr(value, i, 1);
     }
   return out + "\"";
  }

// At most `length` UTF-16 units of `value` (the server counts text so), never half a surrogate pair.
string Clip(const string value, const int length)
  {
   if(StringLen(value) <= length)
      return value;
   int cut = length;
   ushort last = StringGetCharacter(value, cut - 1);
   if(cut > 0 && last >= 0xD800 && last <= 0xDBFF)
      cut--;
   return StringSubstr(value, 0, cut);
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
   return IntegerToString(AccountInfoInteger(ACCOUNT_LOGIN));
  }

string ServerName()
  {
   return AccountInfoString(ACCOUNT_SERVER);
  }

string Currency()
  {
   return AccountInfoString(ACCOUNT_CURRENCY);
  }

// Broker server time − UTC, in minutes, as the terminal measures it.
int UtcOffsetMinutes()
  {
   long seconds = (long)(TimeTradeServer() - TimeGMT());
   int minutes = (int)MathRound(seconds / 60.0);
   if(minutes < -720)
      minutes = -720;
   if(minutes > 840)
      minutes = 840;
   return minutes;
  }

// The broker's clock now. TimeCurrent() is the last quote's time and stands still while the market is
// closed (a weekend); TimeTradeServer() moves with this computer's clock. The later of the two.
datetime BrokerNow()
  {
   datetime quoted = TimeCurrent();
   datetime computed = TimeTradeServer();
   return computed > quoted ? computed : quoted;
  }

bool SymbolWanted(const string symbol)
  {
   if(InpSymbols == "" || symbol == "")
      return true;
   string list = "," + InpSymbols + ",";
   StringReplace(list, " ", "");
   return StringFind(list, "," + symbol + ",") >= 0;
  }

string DealEntry(const long entry)
  {
   if(entry == DEAL_ENTRY_OUT)
      return "out";
   if(entry == DEAL_ENTRY_INOUT)
      return "inout";
   if(entry == DEAL_ENTRY_OUT_BY)
      return "out_by";
   return "in";
  }

void Backoff(const string why)
  {
   g_backoff = g_backoff == 0 ? 1 : (int)MathMin(g_backoff * 2, 60);
   g_retryAt = TimeGMT() + g_backoff;
   g_status = why;
   Print("CopyMonitor: ", why, "; retrying in ", g_backoff, " s");
  }

// A key mistyped or revoked: every call would be refused the same way, so the EA stops sending until it
// is initialised again (the key put right in its inputs, or the EA attached again).
void KeyRefused()
  {
   g_stopped = true;
   g_status = "stopped: the agent key is not accepted (401)";
   Print("CopyMonitor: the agent key is not accepted (401): stopped sending; check InpAgentKey with the operator and put it right in the EA's inputs");
  }

void ShowStatus()
  {
   Comment("CopyMonitor ", Login(), "@", ServerName(), "\n", g_status, "\nsession seq ", g_seq, ", ack ", g_lastAck,
           ", commands run ", g_commandsRun);
  }

//+------------------------------------------------------------------+
//| The terminal's connection                                        |
//+------------------------------------------------------------------+
// The terminal knows its account: a login, a server and a currency (not yet while it is starting).
bool AccountKnown()
  {
   return Login() != "0" && ServerName() != "" && Currency() != "";
  }

// Connected to its trade server, with its account known.
bool TerminalReady()
  {
   return TerminalInfoInteger(TERMINAL_CONNECTED) != 0 && AccountKnown();
  }

// The terminal may trade: its Algo Trading (AutoTrading) button, and the broker's permission for the account.
bool TradeAllowed()
  {
   return TerminalInfoInteger(TERMINAL_TRADE_ALLOWED) != 0 && AccountInfoInteger(ACCOUNT_TRADE_ALLOWED) != 0;
  }

// Notes when the terminal connects (the full snapshot waits InpSettleSeconds after that, for its positions
// to load) and when it is not connected (a full snapshot is due once it is; meanwhile the state only).
void WatchConnection()
  {
   if(TerminalReady())
     {
      if(g_readySince == 0)
         g_readySince = TimeGMT();
      if(g_connection != 2)
         Print("CopyMonitor: the terminal is connected: account ", Login(), " on ", ServerName(), "; a full snapshot in ", InpSettleSeconds, " s");
      g_connection = 2;
      return;
     }
   if(g_connection != 1)
      Print("CopyMonitor: the terminal is not connected to its trade server", AccountKnown() ? ": reporting its state only" : "",
            "; a full snapshot once it is");
   g_connection = 1;
   g_readySince = 0;
   g_needSnapshot = true;
  }

// The terminal has been connected long enough (InpSettleSeconds) for its positions to have loaded.
bool SnapshotDue()
  {
   return g_readySince != 0 && TimeGMT() >= g_readySince + InpSettleSeconds;
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
      if(err == CM_ERR_URL_NOT_ALLOWED)
         Print("CopyMonitor: WebRequest is not allowed for ", BaseUrl(), " (error ", err,
               "): add it in Tools > Options > Expert Advisors > Allow WebRequest for listed URL");
      else
         Print("CopyMonitor: ", method, " ", path, " failed, error ", err);
      return -1;
     }
   answer = CharArrayToString(result, 0, WHOLE_ARRAY, CP_UTF8);
   return status;
  }

//+------------------------------------------------------------------+
//| What the server refused (400): left out, said once, reported     |
//+------------------------------------------------------------------+
// Whether `id` is in a ",a,b," list.
bool Listed(const string list, const long id)
  {
   return StringFind(list, "," + IntegerToString(id) + ",") >= 0;
  }

// Something the server refused, reported once in a next batch's `dropped`.
void AddDropped(const string item, const string reason)
  {
   g_dropped += "{\"item\":" + JsonText(Clip(item, 100)) + ",\"reason\":" + JsonText(Clip(reason, 500)) + "}\n";
  }

// `,"dropped":[…]` with the first CM_MAX_DROPPED items not reported yet ("" when there is none); how many in count.
string DroppedJson(int &count)
  {
   count = 0;
   string items = "";
   int pos = 0;
   while(count < CM_MAX_DROPPED)
     {
      int eol = StringFind(g_dropped, "\n", pos);
      if(eol < 0)
         break;
      items += (items == "" ? "" : ",") + StringSubstr(g_dropped, pos, eol - pos);
      pos = eol + 1;
      count++;
     }
   if(items == "")
      return "";
   return ",\"dropped\":[" + items + "]";
  }

// The first `count` items of g_dropped reached the server.
void ForgetDropped(const int count)
  {
   for(int i = 0; i < count; i++)
     {
      int eol = StringFind(g_dropped, "\n");
      if(eol < 0)
         break;
      g_dropped = StringSubstr(g_dropped, eol + 1);
     }
  }

// `item` is left out of the reports from now on: said once in the Experts log, reported once in `dropped`.
void LeaveOut(const string item, const string reason)
  {
   Print("CopyMonitor: the server refused ", item, " (400): ", reason, "; left out of the reports");
   AddDropped(item, reason);
  }

// A batch refused with 400: leaves out what the server named by its place in the batch
// ("accounts.0.deals.items.3.time: …", several joined by "; "): a deal, an open or closed position, the
// state, the quotes. A message that names no such item (the account's currency, its login, a list too
// long) holds the account's whole part back for CM_HOLD_SECONDS rather than send it again as it was. False
// when the batch itself is wrong (its clock, say): it is built again, anew.
bool DropRefused(const string message, const string batch)
  {
   if(StringFind(message, "dropped") == 0)
     {
      Print("CopyMonitor: the server refused the list of what was left out (400): ", message);
      g_dropped = "";
      return true;
     }
   if(StringFind(message, "sent_at") == 0 || StringFind(message, "seq") == 0 || StringFind(message, "batch_id") == 0 ||
      StringFind(message, "session") == 0 || StringFind(message, "utc_offset_minutes") == 0)
      return false;
   string account = JsonItem(JsonGet(batch, "accounts"), 0);
   if(account == "")
      return false;
   string who = JsonString(JsonGet(account, "login")) + "@" + JsonString(JsonGet(account, "server"));
   bool left = false;
   int at = StringFind(message, "accounts.0.");
   while(at >= 0)
     {
      int next = StringFind(message, "; accounts.", at + 1);
      string reason = next < 0 ? StringSubstr(message, at) : StringSubstr(message, at, next - at);
      string place = StringSubstr(reason, 11);   // after "accounts.0."
      string item = "";
      if(StringFind(place, "deals.items.") == 0)
        {
         string deal = JsonItem(JsonGet(JsonGet(account, "deals"), "items"), (int)StringToInteger(StringSubstr(place, 12)));
         long ticket = (long)JsonDouble(deal, "ticket");
         if(deal != "" && !Listed(g_skipDeals, ticket))
           {
            g_skipDeals += IntegerToString(ticket) + ",";
            item = who + " deal " + IntegerToString(ticket);
           }
        }
      else
         if(StringFind(place, "positions.open.") == 0 || StringFind(place, "positions.closed.") == 0)
           {
            bool open = StringFind(place, "positions.open.") == 0;
            string list = JsonGet(JsonGet(account, "positions"), open ? "open" : "closed");
            string position = JsonItem(list, (int)StringToInteger(StringSubstr(place, open ? 15 : 17)));
            long identifier = (long)(open ? JsonDouble(position, "identifier") : StringToDouble(position));
            if(position != "" && !Listed(g_skipPositions, identifier))
              {
               g_skipPositions += IntegerToString(identifier) + ",";
               item = who + " position " + IntegerToString(identifier);
              }
           }
         else
            if(StringFind(place, "state") == 0 && !g_skipState)
              {
               g_skipState = true;
               item = who + " state";
              }
            else
               if(StringFind(place, "quotes") == 0 && !g_skipQuotes)
                 {
                  g_skipQuotes = true;
                  item = who + " quotes";
                 }
      if(item != "")
        {
         LeaveOut(item, reason);
         left = true;
        }
      at = next < 0 ? -1 : next + 2;
     }
   if(left)
      return true;
   if(message != g_heldReason)
     {
      Print("CopyMonitor: the server refused the account ", who, " (400): ", message, "; its reports are held back ", CM_HOLD_SECONDS,
            " s at a time until the operator puts it right");
      AddDropped(who, message);
     }
   g_heldReason = message;
   g_heldUntil = TimeGMT() + CM_HOLD_SECONDS;
   g_status = "held back: " + message;
   return true;
  }

//+------------------------------------------------------------------+
//| Reports                                                          |
//+------------------------------------------------------------------+
string StateJson()
  {
   long leverage = AccountInfoInteger(ACCOUNT_LEVERAGE);
   if(leverage < 1)
      leverage = 1;
   if(leverage > 10000)
      leverage = 10000;   // the server's limit: a broker's "unlimited" leverage is a huge number, and refused
   double margin = AccountInfoDouble(ACCOUNT_MARGIN);
   if(margin < 0)
      margin = 0;
   return "{\"balance\":" + JsonNum(AccountInfoDouble(ACCOUNT_BALANCE), 2) +
          ",\"equity\":" + JsonNum(AccountInfoDouble(ACCOUNT_EQUITY), 2) +
          ",\"margin\":" + JsonNum(margin, 2) +
          ",\"free_margin\":" + JsonNum(AccountInfoDouble(ACCOUNT_MARGIN_FREE), 2) +
          ",\"leverage\":" + IntegerToString(leverage) +
          ",\"currency\":" + JsonText(Currency()) +
          ",\"connected\":" + (TerminalInfoInteger(TERMINAL_CONNECTED) != 0 ? "true" : "false") +
          ",\"trade_allowed\":" + (TradeAllowed() ? "true" : "false") + "}";
  }

// Open positions: all of them (full) or those changed since the last batch, with those closed since; at
// most CM_MAX_POSITIONS of each, the rest in the next batch (g_morePositions). A full snapshot of more than
// that leaves the rest for the next batch too: the server holds them unconfirmed for that second.
string PositionsJson(const bool full, string &sigs, string &quotes)
  {
   string open = "";
   string seenQuotes = ",";
   int sent = 0;
   int quoted = 0;
   int gone = 0;
   sigs = ";";
   quotes = "";
   g_morePositions = false;
   int total = PositionsTotal();
   for(int i = 0; i < total; i++)
     {
      ulong ticket = PositionGetTicket(i);
      if(ticket == 0)
         continue;
      string symbol = PositionGetString(POSITION_SYMBOL);
      if(!SymbolWanted(symbol))
         continue;
      long id = PositionGetInteger(POSITION_IDENTIFIER);
      if(Listed(g_skipPositions, id))
        {
         sigs += IntegerToString(id) + "=left out;";   // still open: never reported closed
         continue;
        }
      double volume = PositionGetDouble(POSITION_VOLUME);
      double current = PositionGetDouble(POSITION_PRICE_CURRENT);
      double sl = PositionGetDouble(POSITION_SL);
      double tp = PositionGetDouble(POSITION_TP);
      double profit = PositionGetDouble(POSITION_PROFIT);
      double swap = PositionGetDouble(POSITION_SWAP);
      string comment = PositionGetString(POSITION_COMMENT);
      string sig = JsonNum(volume) + "/" + JsonNum(current) + "/" + JsonNum(sl) + "/" + JsonNum(tp) + "/" + JsonNum(profit, 2) + "/" + JsonNum(swap, 2);
      bool unchanged = !full && StringFind(g_posSigs, ";" + IntegerToString(id) + "=" + sig + ";") >= 0;
      bool later = !unchanged && sent == CM_MAX_POSITIONS;   // in the next batch: still open, never reported closed
      sigs += IntegerToString(id) + "=" + (later ? "next" : sig) + ";";
      if(later)
        {
         g_morePositions = true;
         continue;
        }
      if(StringFind(seenQuotes, "," + symbol + ",") < 0 && quoted < CM_MAX_QUOTES)
        {
         seenQuotes += symbol + ",";
         double bid = SymbolInfoDouble(symbol, SYMBOL_BID);
         double ask = SymbolInfoDouble(symbol, SYMBOL_ASK);
         if(bid > 0 && ask > 0)
           {
            quotes += (quotes == "" ? "" : ",") + (string)"{\"symbol\":" + JsonText(symbol) + ",\"bid\":" + JsonNum(bid) + ",\"ask\":" + JsonNum(ask) + "}";
            quoted++;
           }
        }
      if(unchanged)
         continue;
      sent++;
      string item = "{\"identifier\":" + IntegerToString(id) +
                    ",\"ticket\":" + IntegerToString((long)ticket) +
                    ",\"symbol\":" + JsonText(symbol) +
                    ",\"type\":" + (PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_SELL ? "\"sell\"" : "\"buy\"") +
                    ",\"volume\":" + JsonNum(volume) +
                    ",\"price_open\":" + JsonNum(PositionGetDouble(POSITION_PRICE_OPEN)) +
                    ",\"price_current\":" + JsonNum(current) +
                    ",\"sl\":" + JsonNum(sl) + ",\"tp\":" + JsonNum(tp) +
                    ",\"profit\":" + JsonNum(profit, 2) + ",\"swap\":" + JsonNum(swap, 2) +
                    ",\"time\":" + IntegerToString(PositionGetInteger(POSITION_TIME)) +
                    ",\"comment\":" + JsonText(Clip(comment, 64));
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
           {
            if(gone < CM_MAX_POSITIONS)
               closed += (closed == "" ? "" : ",") + id;
            else
              {
               sigs += id + "=gone;";   // reported closed in the next batch
               g_morePositions = true;
              }
            gone++;
           }
         pos = semi + 1;
        }
     }
   if(g_skipQuotes)
      quotes = "";
   string fullText = full ? "true" : "false";
   return "{\"full\":" + fullText + ",\"open\":[" + open + "],\"closed\":[" + closed + "]}";
  }

// Deals after the cursor, oldest first, at most CM_MAX_DEALS; the cursor after them in cursor/tickets.
string DealsJson(datetime &cursor, string &tickets, bool &more, int &count)
  {
   string items = "";
   count = 0;
   more = false;
   cursor = g_dealCursor;
   tickets = g_cursorTickets;
   // Up to a day past the broker's clock now: a clock that moves over a weekend, so the weekend's deposits are read.
   if(!HistorySelect(g_dealCursor, BrokerNow() + 86400))
      return "";
   // HistorySelect promises no order: the (time, ticket) of each deal due, sorted before the batch is cut at 500.
   CM_LONGS(times);
   CM_LONGS(order);
   int total = HistoryDealsTotal();
   ArrayResize(times, total);
   ArrayResize(order, total);
   int n = 0;
   for(int i = 0; i < total; i++)
     {
      ulong ticket = HistoryDealGetTicket(i);
      if(ticket == 0)
         continue;
      datetime time = (datetime)HistoryDealGetInteger(ticket, DEAL_TIME);
      if(time < g_dealCursor || (time == g_dealCursor && Listed(g_cursorTickets, (long)ticket)) || Listed(g_skipDeals, (long)ticket))
         continue;   // sent already, or refused by the server (it does not move the cursor)
      times[n] = (long)time;
      order[n] = (long)ticket;
      n++;
     }
   for(int gap = n / 2; gap > 0; gap /= 2)
      for(int i = gap; i < n; i++)
         for(int j = i; j >= gap && (times[j - gap] > times[j] || (times[j - gap] == times[j] && order[j - gap] > order[j])); j -= gap)
           {
            long t = times[j];
            times[j] = times[j - gap];
            times[j - gap] = t;
            long o = order[j];
            order[j] = order[j - gap];
            order[j - gap] = o;
           }
   for(int k = 0; k < n; k++)
     {
      if(count == CM_MAX_DEALS)
        {
         more = true;
         break;
        }
      ulong ticket = (ulong)order[k];
      datetime time = (datetime)times[k];
      if(time > cursor)
        {
         cursor = time;
         tickets = ",";
        }
      tickets += IntegerToString((long)ticket) + ",";
      string symbol = HistoryDealGetString(ticket, DEAL_SYMBOL);
      long type = HistoryDealGetInteger(ticket, DEAL_TYPE);
      if(!SymbolWanted(symbol) || type > 20)
         continue;
      items += (items == "" ? "" : ",") +
               (string)"{\"ticket\":" + IntegerToString((long)ticket) +
               ",\"position_id\":" + IntegerToString(HistoryDealGetInteger(ticket, DEAL_POSITION_ID)) +
               ",\"order\":" + IntegerToString(HistoryDealGetInteger(ticket, DEAL_ORDER)) +
               ",\"time\":" + IntegerToString((long)time) +
               ",\"type\":" + IntegerToString(type) +
               ",\"entry\":\"" + DealEntry(HistoryDealGetInteger(ticket, DEAL_ENTRY)) + "\"" +
               ",\"symbol\":" + JsonText(symbol) +
               ",\"volume\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_VOLUME)) +
               ",\"price\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_PRICE)) +
               ",\"commission\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_COMMISSION), 2) +
               ",\"fee\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_FEE), 2) +
               ",\"swap\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_SWAP), 2) +
               ",\"profit\":" + JsonNum(HistoryDealGetDouble(ticket, DEAL_PROFIT), 2) +
               ",\"comment\":" + JsonText(Clip(HistoryDealGetString(ticket, DEAL_COMMENT), 64)) + "}";
      count++;
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
   Print("CopyMonitor: new session (", why, ")");
  }

// What the next batch carries (CM_BATCH_*), or 0 when there is nothing to send it about (the account not known yet).
int BatchKind()
  {
   if(g_heldUntil != 0 && TimeGMT() < g_heldUntil)
      return CM_BATCH_EMPTY;
   if(!AccountKnown())
      return 0;
   if(g_needSnapshot)
      return SnapshotDue() ? CM_BATCH_SNAPSHOT : CM_BATCH_STATE;
   return CM_BATCH_CHANGES;
  }

// Builds the next batch into g_pending: the session's snapshot first, then what changed.
void BuildBatch()
  {
   int kind = BatchKind();
   g_pending = "";
   if(kind == 0)
      return;
   g_pendingCursor = g_dealCursor;
   g_pendingTickets = g_cursorTickets;
   g_pendingMore = false;
   g_pendingDeals = 0;
   g_pendingSigs = g_posSigs;
   string accounts = "";
   if(kind != CM_BATCH_EMPTY)
     {
      string account = "{\"login\":" + JsonText(Login()) + ",\"server\":" + JsonText(ServerName());
      if(!g_skipState)
         account += ",\"state\":" + StateJson();
      if(kind == CM_BATCH_SNAPSHOT || kind == CM_BATCH_CHANGES)
        {
         string sigs = ";";
         string quotes = "";
         account += ",\"positions\":" + PositionsJson(kind == CM_BATCH_SNAPSHOT, sigs, quotes);
         g_pendingSigs = sigs;
         if(kind == CM_BATCH_CHANGES && g_historyKnown)
           {
            string deals = DealsJson(g_pendingCursor, g_pendingTickets, g_pendingMore, g_pendingDeals);
            account += ",\"deals\":{\"items\":[" + deals + "],\"deleted\":[]}";
           }
         if(quotes != "")
            account += ",\"quotes\":[" + quotes + "]";
        }
      accounts = account + "}";
     }
   g_seq++;
   g_pending = "{\"session\":" + JsonText(g_session) +
               ",\"seq\":" + IntegerToString(g_seq) +
               ",\"batch_id\":" + JsonText(NewUuid()) +
               ",\"utc_offset_minutes\":" + IntegerToString(UtcOffsetMinutes()) +
               ",\"sent_at\":" + IntegerToString((long)TimeGMT() * 1000) +
               ",\"accounts\":[" + accounts + "]" + DroppedJson(g_pendingDropped) + "}";
   g_pendingKind = kind;
  }

// Sends g_pending; true when the server took it, or refused something the next batch leaves out.
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
      ForgetDropped(g_pendingDropped);
      if(g_pendingKind != CM_BATCH_EMPTY)
         g_heldUntil = 0;
      if(g_pendingKind == CM_BATCH_SNAPSHOT)
        {
         // Deals from history_from: the UTC time of the last deal stored (null: none), back to the broker's clock.
         // A day earlier, so a daylight-saving change in between loses nothing: deals sent again change nothing.
         string from = JsonGet(JsonGet(answer, "history_from"), Login() + "@" + ServerName());
         string what = g_historyKnown ? "full snapshot sent" : "session started";
         long cursor = 0;
         if(from != "" && from != "null")
            cursor = (long)StringToDouble(from) + UtcOffsetMinutes() * 60 - 86400;
         g_dealCursor = (datetime)(cursor > 0 ? cursor : 0);
         g_cursorTickets = ",";
         g_historyKnown = true;
         g_needSnapshot = false;
         g_moreDeals = true;
         Print("CopyMonitor: ", what, " (batch ", g_seq, "), deals from ",
               g_dealCursor == 0 ? "the start of the history" : TimeToString(g_dealCursor, TIME_DATE | TIME_SECONDS));
        }
      if(g_pendingKind == CM_BATCH_CHANGES)
        {
         g_dealCursor = g_pendingCursor;
         g_cursorTickets = g_pendingTickets;
         g_moreDeals = g_pendingMore;
         if(g_pendingDeals > 0)
            Print("CopyMonitor: batch ", g_seq, " sent ", g_pendingDeals, " deals, ", (long)JsonDouble(JsonGet(answer, "applied"), "deals"),
                  " booked");
        }
      if(g_pendingKind == CM_BATCH_SNAPSHOT || g_pendingKind == CM_BATCH_CHANGES)
         g_posSigs = g_pendingSigs;
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
   string refused = g_pending;
   g_pending = "";
   g_seq--;
   if(status == 400 && DropRefused(message, refused))
      return true;   // the next batch leaves out what the server named
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

// Whether a batch is due now: the push interval, something left out to report, a full snapshot as soon
// as the terminal has settled, the rest of the deals, a trade.
bool BatchDue()
  {
   if(TimeGMT() >= g_nextPush || g_dropped != "")
      return true;
   if(g_heldUntil != 0 && TimeGMT() < g_heldUntil)
      return false;
   if(g_needSnapshot)
      return SnapshotDue();
   return g_moreDeals || g_morePositions || g_dirty;
  }

// Pushes what is due: the snapshot, deals still to send, the periodic report.
bool Push()
  {
   for(int attempt = 0; attempt < 20; attempt++)
     {
      if(g_pending == "")
        {
         if(!BatchDue())
            return true;
         g_dirty = false;
         BuildBatch();
         if(g_pending == "")
           {
            g_nextPush = TimeGMT() + InpPushSeconds;
            return true;
           }
        }
      if(!SendPending())
         return false;
     }
   return true;
  }

//+------------------------------------------------------------------+
//| Commands                                                         |
//+------------------------------------------------------------------+
ulong FindPosition(const long identifier)
  {
   int total = PositionsTotal();
   for(int i = 0; i < total; i++)
     {
      ulong ticket = PositionGetTicket(i);
      if(ticket != 0 && PositionGetInteger(POSITION_IDENTIFIER) == identifier)
         return ticket;
     }
   return 0;
  }

// A volume the symbol takes: to its lot step, at most its maximum (one below its minimum the terminal refuses).
double VolumeFor(const string symbol, const double volume)
  {
   double step = SymbolInfoDouble(symbol, SYMBOL_VOLUME_STEP);
   double most = SymbolInfoDouble(symbol, SYMBOL_VOLUME_MAX);
   double rounded = volume;
   if(step > 0)
      rounded = MathRound(volume / step) * step;
   if(most > 0 && rounded > most)
      rounded = step > 0 ? MathFloor(most / step + 1e-9) * step : most;
   return NormalizeDouble(rounded, 8);
  }

// A price to the symbol's digits (0 stays 0: none).
double PriceFor(const string symbol, const double price)
  {
   if(price == 0)
      return 0;
   return NormalizeDouble(price, (int)SymbolInfoInteger(symbol, SYMBOL_DIGITS));
  }

// What an open answers of a volume cut to the symbol's maximum ("" when only the lot step rounded it).
string VolumeCut(const string symbol, const double asked, const double volume)
  {
   double step = SymbolInfoDouble(symbol, SYMBOL_VOLUME_STEP);
   if(volume >= asked - step / 2 - 1e-9)
      return "";
   return "; " + JsonNum(volume) + " lot of the " + JsonNum(asked) + " asked, " + symbol + "'s maximum";
  }

// What volumes the symbol takes, said after the terminal's words when it refuses one.
string VolumeRange(const string symbol, const double asked)
  {
   return " (asked " + JsonNum(asked) + " lot; " + symbol + " takes " + JsonNum(SymbolInfoDouble(symbol, SYMBOL_VOLUME_MIN)) + " to " +
          JsonNum(SymbolInfoDouble(symbol, SYMBOL_VOLUME_MAX)) + " by " + JsonNum(SymbolInfoDouble(symbol, SYMBOL_VOLUME_STEP)) + ")";
  }

// The filling the symbol takes: FOK or IOC by its flags; RETURN only in Market and Exchange execution;
// FOK in Request and Instant execution, where orders are filled whole.
ENUM_ORDER_TYPE_FILLING Filling(const string symbol)
  {
   long mode = SymbolInfoInteger(symbol, SYMBOL_FILLING_MODE);
   long execution = SymbolInfoInteger(symbol, SYMBOL_TRADE_EXEMODE);
   if((mode & SYMBOL_FILLING_FOK) != 0)
      return ORDER_FILLING_FOK;
   if((mode & SYMBOL_FILLING_IOC) != 0)
      return ORDER_FILLING_IOC;
   if(execution == SYMBOL_TRADE_EXECUTION_MARKET || execution == SYMBOL_TRADE_EXECUTION_EXCHANGE)
      return ORDER_FILLING_RETURN;
   return ORDER_FILLING_FOK;
  }

// The terminal's answer to an order, in its own words.
string Outcome(const bool sent, MqlTradeResult &result, string &message)
  {
   message = result.comment + " [" + IntegerToString(result.retcode) + "]";
   if(result.retcode == 0)
      message = "OrderSend failed, error " + IntegerToString(GetLastError());
   if(sent && (result.retcode == TRADE_RETCODE_DONE || result.retcode == TRADE_RETCODE_PLACED || result.retcode == TRADE_RETCODE_DONE_PARTIAL))
      return "done";
   if(result.retcode == TRADE_RETCODE_POSITION_CLOSED)
      return "not_found";
   return "rejected";
  }

string RunModify(const string payload, string &message)
  {
   long identifier = (long)JsonDouble(payload, "identifier");
   ulong ticket = FindPosition(identifier);
   if(ticket == 0)
     {
      message = "No open position " + IntegerToString(identifier);
      return "not_found";
     }
   string symbol = PositionGetString(POSITION_SYMBOL);
   MqlTradeRequest request = {};
   MqlTradeResult result = {};
   request.action = TRADE_ACTION_SLTP;
   request.position = ticket;
   request.symbol = symbol;
   request.sl = PriceFor(symbol, JsonDouble(payload, "sl"));
   request.tp = PriceFor(symbol, JsonDouble(payload, "tp"));
   bool sent = OrderSend(request, result);
   return Outcome(sent, result, message);
  }

string RunClose(const string payload, string &message)
  {
   long identifier = (long)JsonDouble(payload, "identifier");
   ulong ticket = FindPosition(identifier);
   if(ticket == 0)
     {
      message = "No open position " + IntegerToString(identifier);
      return "not_found";
     }
   string symbol = PositionGetString(POSITION_SYMBOL);
   double asked = JsonDouble(payload, "volume");
   double open = PositionGetDouble(POSITION_VOLUME);
   double volume = open;
   if(asked > 0 && asked < open)
      volume = MathMin(VolumeFor(symbol, asked), open);   // part of it, to the lot step
   bool buy = PositionGetInteger(POSITION_TYPE) == POSITION_TYPE_BUY;
   MqlTradeRequest request = {};
   MqlTradeResult result = {};
   request.action = TRADE_ACTION_DEAL;
   request.position = ticket;
   request.symbol = symbol;
   request.volume = volume;
   request.type = buy ? ORDER_TYPE_SELL : ORDER_TYPE_BUY;
   request.price = SymbolInfoDouble(symbol, buy ? SYMBOL_BID : SYMBOL_ASK);
   request.deviation = InpDeviation;
   request.type_filling = Filling(symbol);
   request.comment = "CopyMonitor close";
   bool sent = OrderSend(request, result);
   string state = Outcome(sent, result, message);
   if(result.retcode == TRADE_RETCODE_INVALID_VOLUME)
      message += VolumeRange(symbol, asked);
   return state;
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
   bool buy = JsonString(JsonGet(payload, "type")) == "buy";
   double asked = JsonDouble(payload, "volume");
   MqlTradeRequest request = {};
   MqlTradeResult result = {};
   request.action = TRADE_ACTION_DEAL;
   request.symbol = symbol;
   request.volume = VolumeFor(symbol, asked);
   request.type = buy ? ORDER_TYPE_BUY : ORDER_TYPE_SELL;
   request.price = SymbolInfoDouble(symbol, buy ? SYMBOL_ASK : SYMBOL_BID);
   request.sl = PriceFor(symbol, JsonDouble(payload, "sl"));
   request.tp = PriceFor(symbol, JsonDouble(payload, "tp"));
   request.deviation = InpDeviation;
   request.type_filling = Filling(symbol);
   request.magic = InpMagic;
   // The master position's identifier rides in the comment and is reported back as copy_of.
   request.comment = CM_COPY_PREFIX + IntegerToString((long)JsonDouble(payload, "master_position_id"));
   bool sent = OrderSend(request, result);
   string state = Outcome(sent, result, message);
   if(result.retcode == TRADE_RETCODE_INVALID_VOLUME)
      message += VolumeRange(symbol, asked);
   if(state == "done")
     {
      message += VolumeCut(symbol, asked, request.volume);
      // The position it opened: its deal's position (an order that adds to a netting position names that one).
      g_openedIdentifier = (long)result.order;
      if(result.deal > 0 && HistoryDealSelect(result.deal))
        {
         long position = HistoryDealGetInteger(result.deal, DEAL_POSITION_ID);
         if(position > 0)
            g_openedIdentifier = position;
        }
     }
   return state;
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
   g_openedIdentifier = 0;
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
   // An open done names the position it opened: the server links the copy by it, whatever becomes of the comment.
   string opened = "";
   if(kind == "open" && state == "done" && g_openedIdentifier > 0)
      opened = ",\"identifier\":" + IntegerToString(g_openedIdentifier);
   g_answers += id + "\t{\"state\":" + JsonText(state) + ",\"message\":" + JsonText(Clip(message, 500)) + opened + "}\n";
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
// What an initialisation starts afresh: changing the inputs initialises the EA again without reloading it,
// and the globals keep their values (a refused key among them). Command answers and what is still to be
// reported in `dropped` are kept.
void ResetAgent()
  {
   g_stopped = false;
   g_backoff = 0;
   g_retryAt = 0;
   g_nextPush = 0;
   g_readySince = 0;
   g_connection = 0;
   g_skipDeals = ",";
   g_skipPositions = ",";
   g_skipState = false;
   g_skipQuotes = false;
   g_heldUntil = 0;
   g_heldReason = "";
   g_skewWarned = false;
   g_status = "starting";
  }

int OnInit()
  {
   if(StringFind(BaseUrl(), "http") != 0 || InpAgentKey == "")
     {
      Print("CopyMonitor: give the server URL (https://...) and the agent key in the inputs");
      return INIT_PARAMETERS_INCORRECT;
     }
   // Changing the inputs initialises the EA again without reloading it: the globals keep their values.
   ResetAgent();
   MathSrand(GetTickCount() ^ (uint)TimeLocal());
   StartSession("start");
   Print("CopyMonitor: reporting to ", BaseUrl(), " every ", InpPushSeconds, " s, a full snapshot ", InpSettleSeconds,
         " s after the terminal is connected; broker clock UTC", UtcOffsetMinutes() >= 0 ? "+" : "", DoubleToString(UtcOffsetMinutes() / 60.0, 2));
   EventSetTimer(1);
   return INIT_SUCCEEDED;
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   Comment("");
  }

void OnTimer()
  {
   if(g_stopped)
     {
      ShowStatus();
      return;
     }
   WatchConnection();
   if(TimeGMT() < g_retryAt)
      return;
   if(Push())
     {
      if(AccountKnown())
         PollCommands();
      FlushAnswers();
      if(g_dirty)
         Push();
     }
   ShowStatus();
  }

void OnTradeTransaction(const MqlTradeTransaction &trans, const MqlTradeRequest &request, const MqlTradeResult &result)
  {
   g_dirty = true;
  }
//+------------------------------------------------------------------+
