// Runs ea/CopyMonitor.mq4 (compiled as C++ against mql4.h) over a simulated MetaTrader 4 terminal:
//
//   driver4 <terminal file> <terminal file out> <max seconds>
//
// loads the terminal and the EA's inputs from the first file, calls OnInit, then OnTimer every timer
// period until SIGTERM/SIGINT or max seconds, then OnDeinit. After every timer the terminal (account,
// open orders, history) is written to the second file. MT4 gives an EA no trade event: the EA
// watches the order counts itself.
//
// File format, one item a line, fields separated by spaces (the comment runs to the end of the line):
//   input.url <url> | input.key <key> | input.push <seconds> | input.symbols <a,b>
//   allow <url prefix>                      (Tools > Options > Expert Advisors > Allow WebRequest)
//   clock <broker UTC offset minutes>
//   account <login> <server> <currency> <leverage> <balance> <equity> <margin> <free margin>
//   company <name>
//   symbol <name> <bid> <ask>
//   order <ticket> <symbol or -> <type 0-7> <lots> <open time> <open price> <sl> <tp> <close time, 0: open>
//         <close or current price> <commission> <swap> <profit> <magic> [comment]
//   refuse <modify|close|open> <ticket or 0> <MT4 error code>
//   global <name> <value>                   (the terminal's global variables, kept across restarts)
#include "mql4.h"
#include "../../ea/CopyMonitor.mq4"

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

static bool load(const char *path) {
  std::ifstream f(path);
  if (!f) return false;
  SimTerminal &t = sim();
  SimTerminal4 &t4 = sim4();
  string line;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    string kind;
    in >> kind;
    if (kind == "input.url") in >> InpServerUrl;
    else if (kind == "input.key") in >> InpAgentKey;
    else if (kind == "input.push") in >> InpPushSeconds;
    else if (kind == "input.symbols") in >> InpSymbols;
    else if (kind == "allow") { string u; in >> u; t.allowed_urls.push_back(u); }
    else if (kind == "clock") { long m; in >> m; sim_clock().utc_offset_s = m * 60; }
    else if (kind == "account") in >> t.login >> t.server >> t.currency >> t.leverage >> t.balance >> t.equity >> t.margin >> t.free_margin;
    else if (kind == "company") t4.company = rest_of(in);
    else if (kind == "symbol") { SimSymbol s; in >> s.name >> s.bid >> s.ask; t.symbols.push_back(s); }
    else if (kind == "order") {
      SimOrder o;
      in >> o.ticket >> o.symbol >> o.type >> o.lots >> o.open_time >> o.open_price >> o.sl >> o.tp >> o.close_time >> o.close_price >> o.commission >> o.swap >> o.profit >> o.magic;
      if (o.symbol == "-") o.symbol = "";
      o.comment = rest_of(in);
      (o.close_time == 0 ? t4.trades : t4.history).push_back(o);
    } else if (kind == "global") {
      string name;
      double value;
      in >> name >> value;
      sim_globals()[name] = value;
    } else if (kind == "refuse") {
      SimRefusal4 r;
      in >> r.kind >> r.ticket >> r.error;
      t4.refusals.push_back(r);
    }
  }
  for (auto &o : t4.trades) t4.next_ticket = std::max(t4.next_ticket, o.ticket + 1);
  for (auto &o : t4.history) t4.next_ticket = std::max(t4.next_ticket, o.ticket + 1);
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
    for (const auto *pool : {&sim4().trades, &sim4().history})
      for (auto &o : *pool)
        f << "order " << o.ticket << " " << (o.symbol.empty() ? "-" : o.symbol) << " " << o.type << " " << o.lots << " " << o.open_time << " " << o.open_price << " "
          << o.sl << " " << o.tp << " " << o.close_time << " " << o.close_price << " " << o.commission << " " << o.swap << " " << o.profit << " " << o.magic << " "
          << o.comment << "\n";
    for (auto &g : sim_globals()) f << "global " << g.first << " " << g.second << "\n";
    f << "chart " << sim_chart_comment().substr(0, sim_chart_comment().find('\n')) << "\n";
  }
  std::rename(tmp.c_str(), path);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::cerr << "usage: driver4 <terminal file> <terminal file out> <max seconds>\n";
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
    OnTick();
    OnTimer();
    save(argv[2]);
  }
  OnDeinit(REASON_REMOVE);
  save(argv[2]);
  return 0;
}
