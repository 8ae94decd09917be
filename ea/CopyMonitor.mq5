//+------------------------------------------------------------------+
//| CopyMonitor.mq5 - terminal agent of the copy-trading monitor      |
//|                                                                  |
//| Reports this terminal's account (state, open positions, deals) to |
//| the monitor over Ingest API v1 (docs/ingest-api.md) and runs the  |
//| commands the monitor sends back (TP/SL edits, closes, copies).    |
//| Install: docs/ea.md. Version 1.0.                                 |
//|                                                                  |
//| Written in the common subset of MQL5 and C++: the same file is    |
//| compiled by g++ against tests/ea/mql5.h and run end to end        |
//| against the server in tests/ea (that is why it has no #property   |
//| lines: C++ has no such directive).                               |
//+------------------------------------------------------------------+

// MQL5 dynamic byte arrays (the C++ test harness defines CM_BYTES as a std::vector first).
#ifndef CM_BYTES
#define CM_BYTES(name) char name[]
#endif

input string InpServerUrl   = "https://monitor.example.com"; // Server URL (add it to Tools > Options > Expert Advisors)
input string InpAgentKey    = "";                            // Agent key (shown once by the operator)
input int    InpPushSeconds = 5;                             // Push interval, seconds
input string InpSymbols     = "";                            // Symbols to report, comma-separated (empty: all)
input int    InpTimeoutMs   = 10000;                         // HTTP timeout, milliseconds
input int    InpDeviation   = 20;                            // Slippage allowed for closes and copies, points
input long   InpMagic       = 20261126;                      // Magic number of the copies this EA opens

#define CM_MAX_DEALS 500
#define CM_COPY_PREFIX "cm#"

//--- the agent's session (docs/ingest-api.md: session, seq, batch_id)
string   g_session = "";
long     g_seq = 0;
bool     g_needSnapshot = true;   // the next batch starts the session: state and every open position
bool     g_historyKnown = false;  // history_from has been read for this session
bool     g_moreDeals = false;     // deals are still to be sent (at most 500 a batch)
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
bool     g_pendingMore = false;
int      g_pendingDeals = 0;
//--- what the server has: deals up to the cursor (broker time) and the tickets at that second, positions as last sent
datetime g_dealCursor = 0;
string   g_cursorTickets = ",";
string   g_posSigs = ";";
//--- command answers not yet delivered: "id\tjson\n" lines
string   g_answers = "";
//--- the chart's status line
string   g_status = "starting";
long     g_lastAck = 0;
int      g_commandsRun = 0;
bool     g_skewWarned = false;
bool     g_stopped = false;       // the key was refused (401): nothing more is sent until the EA is attached again

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
   return IntegerToString(AccountInfoInteger(ACCOUNT_LOGIN));
  }

string ServerName()
  {
   return AccountInfoString(ACCOUNT_SERVER);
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
   long leverage = AccountInfoInteger(ACCOUNT_LEVERAGE);
   if(leverage < 1)
      leverage = 1;
   double margin = AccountInfoDouble(ACCOUNT_MARGIN);
   if(margin < 0)
      margin = 0;
   return "{\"balance\":" + JsonNum(AccountInfoDouble(ACCOUNT_BALANCE), 2) +
          ",\"equity\":" + JsonNum(AccountInfoDouble(ACCOUNT_EQUITY), 2) +
          ",\"margin\":" + JsonNum(margin, 2) +
          ",\"free_margin\":" + JsonNum(AccountInfoDouble(ACCOUNT_MARGIN_FREE), 2) +
          ",\"leverage\":" + IntegerToString(leverage) +
          ",\"currency\":" + JsonText(AccountInfoString(ACCOUNT_CURRENCY)) + "}";
  }

// Open positions: all of them (full) or those changed since the last batch, with those closed since.
string PositionsJson(const bool full, string &sigs, string &quotes)
  {
   string open = "";
   string seenQuotes = ",";
   sigs = ";";
   quotes = "";
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
      double volume = PositionGetDouble(POSITION_VOLUME);
      double current = PositionGetDouble(POSITION_PRICE_CURRENT);
      double sl = PositionGetDouble(POSITION_SL);
      double tp = PositionGetDouble(POSITION_TP);
      double profit = PositionGetDouble(POSITION_PROFIT);
      double swap = PositionGetDouble(POSITION_SWAP);
      string comment = PositionGetString(POSITION_COMMENT);
      string sig = JsonNum(volume) + "/" + JsonNum(current) + "/" + JsonNum(sl) + "/" + JsonNum(tp) + "/" + JsonNum(profit, 2) + "/" + JsonNum(swap, 2);
      sigs += IntegerToString(id) + "=" + sig + ";";
      if(StringFind(seenQuotes, "," + symbol + ",") < 0)
        {
         seenQuotes += symbol + ",";
         double bid = SymbolInfoDouble(symbol, SYMBOL_BID);
         double ask = SymbolInfoDouble(symbol, SYMBOL_ASK);
         if(bid > 0 && ask > 0)
            quotes += (quotes == "" ? "" : ",") + (string)"{\"symbol\":" + JsonText(symbol) + ",\"bid\":" + JsonNum(bid) + ",\"ask\":" + JsonNum(ask) + "}";
        }
      if(!full && StringFind(g_posSigs, ";" + IntegerToString(id) + "=" + sig + ";") >= 0)
         continue;
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

// Deals after the cursor, at most CM_MAX_DEALS; the cursor after them in cursor/tickets.
string DealsJson(datetime &cursor, string &tickets, bool &more, int &count)
  {
   string items = "";
   count = 0;
   more = false;
   cursor = g_dealCursor;
   tickets = g_cursorTickets;
   if(!HistorySelect(g_dealCursor, TimeCurrent() + 86400))
      return "";
   int total = HistoryDealsTotal();
   for(int i = 0; i < total; i++)
     {
      ulong ticket = HistoryDealGetTicket(i);
      if(ticket == 0)
         continue;
      datetime time = (datetime)HistoryDealGetInteger(ticket, DEAL_TIME);
      string mark = "," + IntegerToString((long)ticket) + ",";
      if(time < g_dealCursor || (time == g_dealCursor && StringFind(g_cursorTickets, mark) >= 0))
         continue;
      if(count == CM_MAX_DEALS)
        {
         more = true;
         break;
        }
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
               ",\"comment\":" + JsonText(StringSubstr(HistoryDealGetString(ticket, DEAL_COMMENT), 0, 64)) + "}";
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

// Builds the next batch into g_pending: the session's snapshot first, then what changed.
void BuildBatch()
  {
   bool snapshot = g_needSnapshot;
   string sigs = ";";
   string quotes = "";
   string positions = PositionsJson(snapshot, sigs, quotes);
   string account = "{\"login\":" + JsonText(Login()) + ",\"server\":" + JsonText(ServerName()) +
                    ",\"state\":" + StateJson() + ",\"positions\":" + positions;
   g_pendingCursor = g_dealCursor;
   g_pendingTickets = g_cursorTickets;
   g_pendingMore = false;
   g_pendingDeals = 0;
   if(!snapshot && g_historyKnown)
     {
      string deals = DealsJson(g_pendingCursor, g_pendingTickets, g_pendingMore, g_pendingDeals);
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

// Sends g_pending; true when the server took it.
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

ENUM_ORDER_TYPE_FILLING Filling(const string symbol)
  {
   long mode = SymbolInfoInteger(symbol, SYMBOL_FILLING_MODE);
   if((mode & SYMBOL_FILLING_FOK) != 0)
      return ORDER_FILLING_FOK;
   if((mode & SYMBOL_FILLING_IOC) != 0)
      return ORDER_FILLING_IOC;
   return ORDER_FILLING_RETURN;
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
   MqlTradeRequest request = {};
   MqlTradeResult result = {};
   request.action = TRADE_ACTION_SLTP;
   request.position = ticket;
   request.symbol = PositionGetString(POSITION_SYMBOL);
   request.sl = JsonDouble(payload, "sl");
   request.tp = JsonDouble(payload, "tp");
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
   double volume = JsonDouble(payload, "volume");
   double open = PositionGetDouble(POSITION_VOLUME);
   if(volume <= 0 || volume > open)
      volume = open;
   string symbol = PositionGetString(POSITION_SYMBOL);
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
   return Outcome(sent, result, message);
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
   MqlTradeRequest request = {};
   MqlTradeResult result = {};
   request.action = TRADE_ACTION_DEAL;
   request.symbol = symbol;
   request.volume = JsonDouble(payload, "volume");
   request.type = buy ? ORDER_TYPE_BUY : ORDER_TYPE_SELL;
   request.price = SymbolInfoDouble(symbol, buy ? SYMBOL_ASK : SYMBOL_BID);
   request.sl = JsonDouble(payload, "sl");
   request.tp = JsonDouble(payload, "tp");
   request.deviation = InpDeviation;
   request.type_filling = Filling(symbol);
   request.magic = InpMagic;
   // The master position's identifier rides in the comment and is reported back as copy_of.
   request.comment = CM_COPY_PREFIX + IntegerToString((long)JsonDouble(payload, "master_position_id"));
   bool sent = OrderSend(request, result);
   return Outcome(sent, result, message);
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
   Print("CopyMonitor: reporting ", Login(), " on ", ServerName(), " to ", BaseUrl(), " every ", InpPushSeconds,
         " s; broker clock UTC", UtcOffsetMinutes() >= 0 ? "+" : "", DoubleToString(UtcOffsetMinutes() / 60.0, 2));
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
   if(TimeGMT() < g_retryAt)
      return;
   if(Push())
     {
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
