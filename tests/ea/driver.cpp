// Runs ea/CopyMonitor.mq5 (compiled as C++ against mql5.h) over a simulated MetaTrader 5 terminal, as
// driver-common.h says (the command line, the lines both drivers read): every timer period OnTimer, and
// OnTradeTransaction after the trades it made. The terminal written out: account, positions, deals.
//
// This driver's lines (comments run to the end of the line):
//   symbol <name> <bid> <ask> <filling mode> [digits <n>] [volmin <lots>] [volmax <lots>] [volstep <lots>]
//          [stops <points>] [exemode request|instant|market|exchange]   (defaults: 5, 0.01, 100, 0.01, 0, instant)
//   position <ticket> <identifier> <symbol> <buy|sell> <volume> <price open> <price current> <sl> <tp> <profit> <swap> <time> <magic> [comment]
//   deal <ticket> <order> <position id> <time> <type> <entry 0-3> <symbol or -> <volume> <price> <commission> <fee> <swap> <profit> [comment]
//   refuse <modify|close|open> <identifier or 0> <retcode> <comment>
//   skew <seconds>                          (this computer's clock is that far off: TimeGMT, TimeLocal)
// The deals are the terminal's history in the order given here (HistorySelect does not sort them).
// While it runs, lines written to <terminal file>.ctl are applied once before the next timer (then the
// file is removed): any of the above, driver-common.h's, and trades made by hand in the terminal:
//   open <identifier> <symbol> <buy|sell> <volume> <price>     (a position and its in deal, now)
//   close <identifier> <price> <profit>                        (its out deal, now)
//   drop <identifier>                                          (gone, no deal seen yet)
//   price <symbol> <bid> <ask>                                 (the market moves; positions valued at it)
#include "mql5.h"
#ifdef CM_EA
#include CM_EA  // another copy of the EA: EA_MQ5=<file> (tests/ea/harness.ts)
#else
#include "../../ea/CopyMonitor.mq5"
#endif
#include "driver-common.h"

static void close_position(ulong identifier, double price, double profit) {
  SimTerminal &t = sim();
  for (size_t i = 0; i < t.positions.size(); i++) {
    SimPosition &p = t.positions[i];
    if (p.identifier != identifier) continue;
    SimDeal d;
    d.ticket = t.next_ticket++;
    d.order = d.ticket;
    d.position_id = p.identifier;
    d.time = sim_server_time();
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

static void terminal_line(const std::string &kind, std::istringstream &in) {
  SimTerminal &t = sim();
  if (kind == "skew") in >> sim_clock().pc_skew_s;
  else if (kind == "symbol") {
    SimSymbol s;
    in >> s.name >> s.bid >> s.ask >> s.filling;
    symbol_options(s, in);
    t.symbols.push_back(s);
  } else if (kind == "position") {
    SimPosition p;
    std::string type;
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
    std::string type;
    in >> p.identifier >> p.symbol >> type >> p.volume >> p.price_open;
    p.ticket = p.identifier;
    p.type = type == "sell" ? 1 : 0;
    p.price_current = p.price_open;
    p.time = sim_server_time();
    sim_open_position(p);
  } else if (kind == "close") {
    // A close made by hand in the terminal (or by the broker: a stop hit).
    ulong identifier; double price, profit;
    in >> identifier >> price >> profit;
    close_position(identifier, price, profit);
  } else if (kind == "price") {
    // The market moves: the symbol's quotes, and the open positions on it valued at them.
    string name;
    double bid, ask;
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

static void write_trades(std::ostream &f) {
  SimTerminal &t = sim();
  for (auto &p : t.positions)
    f << "position " << p.ticket << " " << p.identifier << " " << p.symbol << " " << (p.type ? "sell" : "buy") << " " << p.volume << " " << p.price_open << " "
      << p.price_current << " " << p.sl << " " << p.tp << " " << p.profit << " " << p.swap << " " << p.time << " " << p.magic << " " << p.comment << "\n";
  for (auto &d : t.deals)
    f << "deal " << d.ticket << " " << d.order << " " << d.position_id << " " << d.time << " " << d.type << " " << d.entry << " " << (d.symbol == "" ? string("-") : d.symbol) << " "
      << d.volume << " " << d.price << " " << d.commission << " " << d.fee << " " << d.swap << " " << d.profit << " " << d.comment << "\n";
}

static void timer(bool manual) {
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
}

int main(int argc, char **argv) { return run_driver(argc, argv, "driver"); }
