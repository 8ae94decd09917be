// Runs ea/CopyMonitor.mq5 (compiled as C++ against mql5.h) over a simulated MetaTrader 5 terminal:
//
//   driver <terminal file> <terminal file out> <max seconds>
//
// loads the terminal and the EA's inputs from the first file, calls OnInit, then OnTimer every timer
// period (and OnTradeTransaction after the trades it made) until SIGTERM/SIGINT or max seconds, then
// OnDeinit. After every timer the terminal (positions, deals, account) is written to the second file.
//
// File format, one item a line, fields separated by spaces (comments run to the end of the line):
//   input.url <url> | input.key <key> | input.push <seconds> | input.symbols <a,b>
//   allow <url prefix>                      (Tools > Options > Expert Advisors > Allow WebRequest)
//   clock <broker UTC offset minutes>
//   account <login> <server> <currency> <leverage> <balance> <equity> <margin> <free margin>
//   symbol <name> <bid> <ask> <filling mode>
//   position <ticket> <identifier> <symbol> <buy|sell> <volume> <price open> <price current> <sl> <tp> <profit> <swap> <time> <magic> [comment]
//   deal <ticket> <order> <position id> <time> <type> <entry 0-3> <symbol or -> <volume> <price> <commission> <fee> <swap> <profit> [comment]
//   refuse <modify|close|open> <identifier or 0> <retcode> <comment>
//   skew <seconds>                          (this computer's clock is that far off: TimeGMT, TimeLocal)
// While it runs, lines written to <terminal file>.ctl are applied once before the next timer (then the
// file is removed): any of the above, and trades made by hand in the terminal:
//   open <identifier> <symbol> <buy|sell> <volume> <price>     (a position and its in deal, now)
//   close <identifier> <price> <profit>                        (its out deal, now)
//   drop <identifier>                                          (gone, no deal seen yet)
//   price <symbol> <bid> <ask>                                 (the market moves; positions valued at it)
#include "mql5.h"
#include "../../ea/CopyMonitor.mq5"

#include <csignal>
#include <fstream>
#include <thread>

static volatile std::sig_atomic_t g_stop = 0;
static void on_signal(int) { g_stop = 1; }

static string rest_of(std::istringstream &in) {
  string r;
  std::getline(in, r);
  size_t s = r.find_first_not_of(' ');
  return s == string::npos ? "" : r.substr(s);
}

static void close_position(ulong identifier, double price, double profit) {
  SimTerminal &t = sim();
  for (size_t i = 0; i < t.positions.size(); i++) {
    SimPosition &p = t.positions[i];
    if (p.identifier != identifier) continue;
    SimDeal d;
    d.ticket = t.next_ticket++;
    d.order = d.ticket;
    d.position_id = p.identifier;
    d.time = TimeTradeServer();
    d.type = p.type == 0 ? 1 : 0;
    d.entry = DEAL_ENTRY_OUT;
    d.symbol = p.symbol;
    d.volume = p.volume;
    d.price = price;
    d.profit = profit;
    t.deals.push_back(d);
    t.balance += profit;
    t.positions.erase(t.positions.begin() + i);
    sim_recompute_equity();
    return;
  }
}

static void line_of(const string &line) {
  SimTerminal &t = sim();
  std::istringstream in(line);
  string kind;
  in >> kind;
  if (kind == "input.url") in >> InpServerUrl;
  else if (kind == "input.key") in >> InpAgentKey;
  else if (kind == "input.push") in >> InpPushSeconds;
  else if (kind == "input.symbols") in >> InpSymbols;
  else if (kind == "allow") { string u; in >> u; t.allowed_urls.push_back(u); }
  else if (kind == "clock") { long m; in >> m; sim_clock().utc_offset_s = m * 60; }
  else if (kind == "skew") in >> sim_clock().pc_skew_s;
  else if (kind == "account") in >> t.login >> t.server >> t.currency >> t.leverage >> t.balance >> t.equity >> t.margin >> t.free_margin;
  else if (kind == "symbol") { SimSymbol s; in >> s.name >> s.bid >> s.ask >> s.filling; t.symbols.push_back(s); }
  else if (kind == "position") {
    SimPosition p;
    string type;
    in >> p.ticket >> p.identifier >> p.symbol >> type >> p.volume >> p.price_open >> p.price_current >> p.sl >> p.tp >> p.profit >> p.swap >> p.time >> p.magic;
    p.type = type == "sell" ? 1 : 0;
    p.comment = rest_of(in);
    t.positions.push_back(p);
  } else if (kind == "deal") {
    SimDeal d;
    in >> d.ticket >> d.order >> d.position_id >> d.time >> d.type >> d.entry >> d.symbol >> d.volume >> d.price >> d.commission >> d.fee >> d.swap >> d.profit;
    if (d.symbol == "-") d.symbol = "";
    d.comment = rest_of(in);
    t.deals.push_back(d);
  } else if (kind == "refuse") {
    SimRefusal r;
    in >> r.kind >> r.identifier >> r.retcode;
    r.comment = rest_of(in);
    t.refusals.push_back(r);
  } else if (kind == "open") {
    // A trade made by hand in the terminal: the position and its in deal, at the broker's clock now.
    SimPosition p;
    string type;
    in >> p.identifier >> p.symbol >> type >> p.volume >> p.price_open;
    p.ticket = p.identifier;
    p.type = type == "sell" ? 1 : 0;
    p.price_current = p.price_open;
    p.time = TimeTradeServer();
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
    t.deals.push_back(d);
  } else if (kind == "close") {
    // A close made by hand in the terminal (or by the broker: a stop hit).
    ulong identifier; double price, profit;
    in >> identifier >> price >> profit;
    close_position(identifier, price, profit);
  } else if (kind == "price") {
    // The market moves: the symbol's quotes, and the open positions on it valued at them.
    string name; double bid, ask;
    in >> name >> bid >> ask;
    for (auto &sym : t.symbols) if (sym.name == name) { sym.bid = bid; sym.ask = ask; }
    for (auto &p : t.positions)
      if (p.symbol == name) {
        p.price_current = p.type == 0 ? bid : ask;
        p.profit = std::round((p.price_current - p.price_open) * (p.type == 0 ? 1 : -1) * p.volume * 100000 * 100) / 100;
      }
    sim_recompute_equity();
  } else if (kind == "drop") {
    // The position is gone without a trade the EA can see yet (closed elsewhere between two reports).
    ulong identifier;
    in >> identifier;
    t.positions.erase(std::remove_if(t.positions.begin(), t.positions.end(), [&](const SimPosition &p) { return p.identifier == identifier; }), t.positions.end());
  }
  for (auto &p : t.positions) t.next_ticket = std::max(t.next_ticket, p.ticket + 1);
  for (auto &d : t.deals) t.next_ticket = std::max(t.next_ticket, d.ticket + 1);
}

static bool load(const char *path) {
  std::ifstream f(path);
  if (!f) return false;
  string line;
  while (std::getline(f, line)) line_of(line);
  return true;
}

// Trades made in the terminal while the EA runs: lines written to <terminal file>.ctl, applied once, then removed.
static bool control(const string &path) {
  std::ifstream f(path);
  if (!f) return false;
  string line;
  while (std::getline(f, line)) line_of(line);
  f.close();
  std::remove(path.c_str());
  return true;
}

// The terminal as it stands (never the inputs: the agent key stays out of files).
static void save(const char *path) {
  SimTerminal &t = sim();
  string tmp = string(path) + ".tmp";
  {
    std::ofstream f(tmp);
    f.precision(10);
    f << "account " << t.login << " " << t.server << " " << t.currency << " " << t.leverage << " " << t.balance << " " << t.equity << " " << t.margin << " " << t.free_margin << "\n";
    for (auto &p : t.positions)
      f << "position " << p.ticket << " " << p.identifier << " " << p.symbol << " " << (p.type ? "sell" : "buy") << " " << p.volume << " " << p.price_open << " "
        << p.price_current << " " << p.sl << " " << p.tp << " " << p.profit << " " << p.swap << " " << p.time << " " << p.magic << " " << p.comment << "\n";
    for (auto &d : t.deals)
      f << "deal " << d.ticket << " " << d.order << " " << d.position_id << " " << d.time << " " << d.type << " " << d.entry << " " << (d.symbol.empty() ? "-" : d.symbol) << " "
        << d.volume << " " << d.price << " " << d.commission << " " << d.fee << " " << d.swap << " " << d.profit << " " << d.comment << "\n";
    f << "chart " << sim_chart_comment().substr(0, sim_chart_comment().find('\n')) << "\n";
  }
  std::rename(tmp.c_str(), path);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::cerr << "usage: driver <terminal file> <terminal file out> <max seconds>\n";
    return 2;
  }
  if (!load(argv[1])) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  struct sigaction sa{};
  sa.sa_handler = on_signal;  // no SA_RESTART: a blocked WebRequest returns on a signal
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  double max_seconds = std::atof(argv[3]);
  if (OnInit() != INIT_SUCCEEDED) {
    std::cerr << "OnInit failed\n";
    return 3;
  }
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double next = 0;
  while (!g_stop && elapsed() < max_seconds) {
    if (elapsed() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    next = elapsed() + std::max(1, sim_timer_seconds());
    bool manual = control(string(argv[1]) + ".ctl");
    size_t deals_before = sim().deals.size();
    std::vector<std::pair<double, double>> stops_before;
    for (auto &p : sim().positions) stops_before.push_back({p.sl, p.tp});
    OnTimer();
    bool traded = manual || sim().deals.size() != deals_before || stops_before.size() != sim().positions.size();
    for (size_t i = 0; !traded && i < stops_before.size(); i++)
      traded = stops_before[i].first != sim().positions[i].sl || stops_before[i].second != sim().positions[i].tp;
    if (traded) {
      MqlTradeTransaction trans;
      MqlTradeRequest request;
      MqlTradeResult result;
      OnTradeTransaction(trans, request, result);
    }
    save(argv[2]);
  }
  OnDeinit(REASON_REMOVE);
  save(argv[2]);
  return 0;
}
