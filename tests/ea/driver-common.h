// What driver.cpp (MT5) and driver4.cpp (MT4) share, included after the runtime (mql5.h or mql4.h) and
// the EA: the command line, the terminal file's lines both read, the file I/O, and the run itself.
//
//   <driver> <terminal file> <terminal file out> <max seconds>
//
// loads the terminal and the EA's inputs from the first file, calls OnInit, then the driver's timer
// every timer period until SIGTERM/SIGINT or max seconds, then OnDeinit. After every timer the terminal
// is written to the second file.
//
// Lines both read, one item a line, fields separated by spaces:
//   input.url <url> | input.key <key> | input.push <seconds> | input.symbols <a,b> | input.settle <seconds>
//   allow <url prefix>                      (Tools > Options > Expert Advisors > Allow WebRequest)
//   clock <broker UTC offset minutes>
//   lasttick <broker time>                  (the market is closed since then: TimeCurrent() stays there; 0: open)
//   account <login> <server> <currency> <leverage> <balance> <equity> <margin> <free margin>
//   startup <tick> <tick>                   (the terminal was just launched: it connects at the first timer
//                                            tick given and has its positions and history at the second)
//   algo <0|1>                              (the Algo Trading button: TERMINAL_TRADE_ALLOWED)
//   account.trade <0|1>                     (the broker lets the account trade: ACCOUNT_TRADE_ALLOWED)
// While it runs, lines written to <terminal file>.ctl are applied once before the next timer (then the
// file is removed): any of the above and the driver's own, and
//   disconnect <ticks>                      (the connection is lost for that many timer ticks)
//   reinit <line>                           (the inputs dialog: OnDeinit(REASON_PARAMETERS), the input line
//                                            applied, OnInit; the EA's globals keep their values, as in MQL)
#pragma once

#include <csignal>
#include <fstream>
#include <thread>

// Each driver defines these: a line of its own (`kind` already read from `in`), its trades as it writes
// them out, and one timer period (OnTimer and what goes with it; `manual`: trades were made by hand).
static void terminal_line(const std::string &kind, std::istringstream &in);
static void write_trades(std::ostream &f);
static void timer(bool manual);

static volatile std::sig_atomic_t g_stop = 0;
static void on_signal(int) { g_stop = 1; }

/** Sets an input as the terminal's inputs dialog does (the EA itself cannot: under CM_CONST_INPUTS they are const). */
template <typename T, typename V> static void set_input(const T &input_variable, const V &value) { const_cast<T &>(input_variable) = value; }

// The rest of the line, leading spaces off: a comment.
static std::string rest_of(std::istringstream &in) {
  std::string r;
  std::getline(in, r);
  size_t s = r.find_first_not_of(' ');
  return s == std::string::npos ? "" : r.substr(s);
}

static int execution_mode(const std::string &name) {
  if (name == "request") return SYMBOL_TRADE_EXECUTION_REQUEST;
  if (name == "market") return SYMBOL_TRADE_EXECUTION_MARKET;
  if (name == "exchange") return SYMBOL_TRADE_EXECUTION_EXCHANGE;
  return SYMBOL_TRADE_EXECUTION_INSTANT;
}

/** A symbol's optional properties after its quotes: `digits 5 volmin 0.01 volmax 100 volstep 0.01 stops 0 exemode instant`. */
static void symbol_options(SimSymbol &s, std::istringstream &in) {
  std::string key;
  while (in >> key) {
    if (key == "digits") in >> s.digits;
    else if (key == "volmin") in >> s.vol_min;
    else if (key == "volmax") in >> s.vol_max;
    else if (key == "volstep") in >> s.vol_step;
    else if (key == "stops") in >> s.stops_level;
    else if (key == "exemode") { std::string m; in >> m; s.exemode = execution_mode(m); }
  }
}

static void line_of(const std::string &line);

static void control_line(const std::string &kind, std::istringstream &in) {
  SimTerminal &t = sim();
  if (kind == "disconnect") {
    int ticks = 0;
    in >> ticks;
    t.phase = SIM_DISCONNECTED;
    t.reconnect_at = t.ticks + ticks + 1;
  } else if (kind == "reinit") {
    OnDeinit(REASON_PARAMETERS);
    line_of(rest_of(in));
    if (OnInit() != INIT_SUCCEEDED) std::cerr << "OnInit failed\n";
  }
}

static void line_of(const std::string &line) {
  SimTerminal &t = sim();
  std::istringstream in(line);
  std::string kind, word;
  in >> kind;
  if (kind == "input.url") { in >> word; set_input(InpServerUrl, string(word)); }
  else if (kind == "input.key") { in >> word; set_input(InpAgentKey, string(word)); }
  else if (kind == "input.push") { int v; in >> v; set_input(InpPushSeconds, v); }
  else if (kind == "input.settle") { int v; in >> v; set_input(InpSettleSeconds, v); }
  else if (kind == "input.symbols") { in >> word; set_input(InpSymbols, string(word)); }
  else if (kind == "allow") { in >> word; t.allowed_urls.push_back(word); }
  else if (kind == "clock") { long m; in >> m; sim_clock().utc_offset_s = m * 60; }
  else if (kind == "lasttick") in >> sim_clock().last_tick;
  else if (kind == "account") {
    in >> t.login >> word;
    t.server = string(word);
    in >> word;
    t.currency = string(word);
    in >> t.leverage >> t.balance >> t.equity >> t.margin >> t.free_margin;
  }
  else if (kind == "startup") { in >> t.connect_at >> t.loaded_at; t.phase = SIM_STARTING; }
  else if (kind == "algo") { int v; in >> v; t.algo_trading = v != 0; }
  else if (kind == "account.trade") { int v; in >> v; t.account_trade = v != 0; }
  else if (kind == "disconnect" || kind == "reinit") control_line(kind, in);
  else terminal_line(kind, in);
}

// Applies every line of a terminal file: false if there is none.
static bool load(const std::string &path) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  while (std::getline(f, line)) line_of(line);
  return true;
}

// Lines written to <terminal file>.ctl while the EA runs: applied once, then removed.
static bool control(const std::string &path) {
  if (!load(path)) return false;
  std::remove(path.c_str());
  return true;
}

// The terminal as it stands (never the inputs: the agent key stays out of files).
static void save(const char *path) {
  SimTerminal &t = sim();
  std::string tmp = std::string(path) + ".tmp";
  {
    std::ofstream f(tmp);
    f.precision(10);
    f << "account " << t.login << " " << t.server << " " << t.currency << " " << t.leverage << " " << t.balance << " " << t.equity << " " << t.margin << " " << t.free_margin << "\n";
    write_trades(f);
    f << "chart " << sim_chart_comment().substr(0, sim_chart_comment().find('\n')) << "\n";
  }
  std::rename(tmp.c_str(), path);
}

static int run_driver(int argc, char **argv, const char *name) {
  if (argc < 4) {
    std::cerr << "usage: " << name << " <terminal file> <terminal file out> <max seconds>\n";
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
  std::string ctl = std::string(argv[1]) + ".ctl";
  while (!g_stop && elapsed() < max_seconds) {
    if (elapsed() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    next = elapsed() + std::max(1, sim_timer_seconds());
    sim_tick();
    bool manual = control(ctl);
    timer(manual);
    save(argv[2]);
  }
  OnDeinit(REASON_REMOVE);
  save(argv[2]);
  return 0;
}
