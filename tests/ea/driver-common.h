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
//   input.url <url> | input.key <key> | input.push <seconds> | input.symbols <a,b>
//   allow <url prefix>                      (Tools > Options > Expert Advisors > Allow WebRequest)
//   clock <broker UTC offset minutes>
//   account <login> <server> <currency> <leverage> <balance> <equity> <margin> <free margin>
#pragma once

#include <csignal>
#include <fstream>
#include <thread>

// Each driver defines these: a line of its own (`kind` already read from `in`), its trades as it writes
// them out, and one timer period (OnTimer and what goes with it) over the terminal file `file`.
static void terminal_line(const string &kind, std::istringstream &in);
static void write_trades(std::ostream &f);
static void timer(const char *file);

static volatile std::sig_atomic_t g_stop = 0;
static void on_signal(int) { g_stop = 1; }

// The rest of the line, leading spaces off: a comment.
static string rest_of(std::istringstream &in) {
  string r;
  std::getline(in, r);
  size_t s = r.find_first_not_of(' ');
  return s == string::npos ? "" : r.substr(s);
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
  else if (kind == "account") in >> t.login >> t.server >> t.currency >> t.leverage >> t.balance >> t.equity >> t.margin >> t.free_margin;
  else terminal_line(kind, in);
}

// Applies every line of a terminal file: false if there is none.
static bool load(const string &path) {
  std::ifstream f(path);
  if (!f) return false;
  string line;
  while (std::getline(f, line)) line_of(line);
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
  while (!g_stop && elapsed() < max_seconds) {
    if (elapsed() < next) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    next = elapsed() + std::max(1, sim_timer_seconds());
    timer(argv[1]);
    save(argv[2]);
  }
  OnDeinit(REASON_REMOVE);
  save(argv[2]);
  return 0;
}
