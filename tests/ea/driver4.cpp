// Runs ea/CopyMonitor.mq4 (compiled as C++ against mql4.h) over a simulated MetaTrader 4 terminal, as
// driver-common.h says (the command line, the lines both drivers read): every timer period OnTick and
// OnTimer. MT4 gives an EA no trade event: the EA watches the order counts itself. The terminal written
// out: account, open orders, history, global variables.
//
// This driver's lines (the comment runs to the end of the line):
//   company <name>
//   symbol <name> <bid> <ask> [digits <n>] [volmin <lots>] [volmax <lots>] [volstep <lots>] [stops <points>]
//          [exemode instant|market|...]   (defaults: 5, 0.01, 100, 0.01, 0, instant; market: an ECN account)
//   order <ticket> <symbol or -> <type 0-7> <lots> <open time> <open price> <sl> <tp> <close time, 0: open>
//         <close or current price> <commission> <swap> <profit> <magic> [comment]
//   refuse <modify|close|open> <ticket or 0> <MT4 error code>
//   global <name> <value>                   (the terminal's global variables, kept across restarts)
#include "mql4.h"
#ifdef CM_EA
#include CM_EA  // another copy of the EA: EA_MQ4=<file> (tests/ea/harness.ts)
#else
#include "../../ea/CopyMonitor.mq4"
#endif
#include "driver-common.h"

static void terminal_line(const std::string &kind, std::istringstream &in) {
  SimTerminal &t = sim();
  SimTerminal4 &t4 = sim4();
  if (kind == "company") t4.company = rest_of(in);
  else if (kind == "symbol") {
    SimSymbol s;
    in >> s.name >> s.bid >> s.ask;
    symbol_options(s, in);
    t.symbols.push_back(s);
  }
  else if (kind == "order") {
    SimOrder o;
    in >> o.ticket >> o.symbol >> o.type >> o.lots >> o.open_time >> o.open_price >> o.sl >> o.tp >> o.close_time >> o.close_price >> o.commission >> o.swap >> o.profit >> o.magic;
    if (o.symbol == "-") o.symbol = "";
    o.comment = rest_of(in);
    (o.close_time == 0 ? t4.trades : t4.history).push_back(o);
    t4.next_ticket = std::max(t4.next_ticket, o.ticket + 1);
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

static void write_trades(std::ostream &f) {
  for (const auto *pool : {&sim4().trades, &sim4().history})
    for (auto &o : *pool)
      f << "order " << o.ticket << " " << (o.symbol == "" ? string("-") : o.symbol) << " " << o.type << " " << o.lots << " " << o.open_time << " " << o.open_price << " "
        << o.sl << " " << o.tp << " " << o.close_time << " " << o.close_price << " " << o.commission << " " << o.swap << " " << o.profit << " " << o.magic << " "
        << o.comment << "\n";
  for (auto &g : sim_globals()) f << "global " << g.first << " " << g.second << "\n";
}

static void timer(bool) {
  OnTick();
  OnTimer();
}

int main(int argc, char **argv) { return run_driver(argc, argv, "driver4"); }
