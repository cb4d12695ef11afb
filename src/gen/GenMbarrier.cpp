// mbarrier instructions: arrive{.expect_tx}, expect_tx, complete_tx, test_wait/try_wait.
#include "gen/Families.hpp"

namespace ptxmc::gen {

namespace {

std::string mbScope(Rng& r) {
    return r.pick({"", ".cta", ".cluster"});
}

} // namespace

bool arrive(Draft& d, int t, int mb, int inst, int expectTx) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const bool local = inst == c;
    std::string q = r.pick({"", ".release", ".release", ".relaxed"});
    // A remote arrive goes through the cluster window and can return no phase token.
    q += local ? mbScope(r) : std::string(".cluster");
    const std::string space =
        local ? r.pick({"", ".shared::cta", ".shared::cta", ".shared", ".shared::cluster"})
              : ".shared::cluster";
    q += space;
    // Through the .shared::cluster window the state operand must be the sink (PTX ISA
    // 9.7.13.15.13).
    const bool token = space != ".shared::cluster" && r.chance(35);
    const std::string st = token ? d.freshReg("tk") : "_";
    const CellKey k = d.key(mb, inst);
    d.emit(t, std::string("mbarrier.arrive") + (expectTx ? ".expect_tx" : "") + q + ".b64 " + st +
                  ", " + d.addr(mb, c, inst) + (expectTx ? ", " + std::to_string(expectTx) : ""));
    d.mbArrive(k);
    if (token) {
        d.define(t, st, {});
        d.th(t).tokens[st] = k;
    }
    return true;
}

std::string mbWait(Draft& d, int t, int mb, bool blocking) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const CellKey k = d.key(mb, c);
    // Spin only where the phase can complete, but now and then on a hopeless one: deadlocks
    // are outcomes too.
    blocking = blocking && (d.mayBlock(k) || r.chance(10));
    std::vector<std::string> tokens;
    for (const auto& [reg, key] : d.th(t).tokens)
        if (key == k) tokens.push_back(reg);
    std::string arg = r.chance(75) ? "0" : "1";
    std::string q = ".parity";
    if (!tokens.empty() && r.chance(50)) {
        arg = r.pick(tokens);
        q.clear();
    }
    std::string sem = r.pick({"", ".acquire", ".acquire", ".relaxed"});
    std::string scope = sem == ".relaxed" ? r.pick({".cta", ".cluster"}) : mbScope(r);
    q += sem + scope + r.pick({"", ".shared::cta", ".shared::cta", ".shared"});
    const std::string dst = blocking ? "_" : d.freshReg("p");
    d.emit(t, std::string("mbarrier.") + r.pick({"try_wait", "try_wait", "test_wait"}) + q +
                  ".b64 " + dst + ", " + d.addr(mb, c, c) + ", " + arg);
    d.mbOp(k);
    if (!blocking) {
        d.define(t, dst, {1, 0});
        d.observe(t, dst, std::nullopt);
    }
    return blocking ? "" : dst;
}

bool txOp(Draft& d, int t, int mb, int inst, bool complete, int bytes) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const std::string space = inst == c ? ".shared::cta" : ".shared::cluster";
    d.emit(t, std::string("mbarrier.") + (complete ? "complete_tx" : "expect_tx") + ".relaxed" +
                  (inst == c ? r.pick({".cta", ".cluster"}) : ".cluster") + space + ".b64 " +
                  d.addr(mb, c, inst) + ", " + std::to_string(bytes));
    d.mbOp(d.key(mb, inst));
    return true;
}

namespace {

/** The mbarrier instance an operation of `t` targets: its own CTA, sometimes the peer's. */
int targetCta(Draft& d, int t, bool remoteOk) {
    const int c = d.ctaOf(t);
    return remoteOk && d.peer(c) >= 0 && d.rng().chance(25) ? d.peer(c) : c;
}

bool fragArrive(Draft& d) {
    int t = d.pickThread();
    int inst = targetCta(d, t, true);
    int mb = d.pickMbarrier(t, inst);
    return mb >= 0 && arrive(d, t, mb, inst, d.rng().chance(30) ? 16 : 0);
}

bool fragWait(Draft& d) {
    int t = d.pickThread();
    int mb = d.pickMbarrier(t, d.ctaOf(t));
    if (mb < 0) return false;
    mbWait(d, t, mb, d.rng().chance(55));
    return true;
}

bool fragTx(Draft& d) {
    int t = d.pickThread();
    int inst = targetCta(d, t, true);
    int mb = d.pickMbarrier(t, inst);
    if (mb < 0) return false;
    const bool complete = d.rng().chance(50); // one draw per statement: argument order varies
    return txOp(d, t, mb, inst, complete, d.rng().chance(70) ? 16 : 32);
}

/** One thread arrives, another waits on the same phase. */
bool fragHandoff(Draft& d) {
    if (d.threads() < 2) return false;
    int c = d.pickThread();
    int p = d.pickThread();
    if (p == c) return false;
    const int inst = d.ctaOf(c);
    if (d.ctaOf(p) != inst && d.peer(d.ctaOf(p)) != inst) return false;
    int mb = d.pickMbarrier(c, inst);
    if (mb < 0) return false;
    int tx = d.rng().chance(25) ? 16 : 0;
    arrive(d, p, mb, inst, tx);
    if (tx) txOp(d, d.rng().chance(50) ? p : c, mb, inst, true, tx);
    mbWait(d, c, mb, d.rng().chance(65));
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> mbarrierFragments() {
    return {{fragArrive, 4}, {fragWait, 4}, {fragTx, 2}, {fragHandoff, 4}};
}

} // namespace ptxmc::gen
