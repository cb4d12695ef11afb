// mbarrier instructions: arrive{.expect_tx}, expect_tx, complete_tx, test_wait/try_wait.
#include "gen/Families.hpp"
#include "ptx/Insn.hpp"

namespace ptxmc::gen {

namespace {

using ptx::Scope;
using PSpace = ptx::StateSpace;

Scope mbScope(Rng& r) {
    return r.pick({Scope::None, Scope::Cta, Scope::Cluster});
}

/**
 * The target CTAs of a 9.4 mbarrier multicast, now and then in a 2-CTA cluster (ranks are the
 * CTA numbers there), or none: the plain form. Every target gets the mbarrier instance.
 */
std::vector<int> multicastTargets(Draft& d, int t, int mb) {
    const int c = d.ctaOf(t);
    if (d.peer(c) < 0 || d.loc(mb).programInit || !d.rng().chance(15)) return {};
    const int mask = d.rng().pick({3, 3, 1, 2});
    std::vector<int> targets;
    d.ensure(mb, c);
    for (int cta = 0; cta < 2; ++cta)
        if (mask >> cta & 1) {
            targets.push_back(cta);
            d.ensure(mb, cta);
        }
    return targets;
}

std::string maskText(const std::vector<int>& targets) {
    int mask = 0;
    for (int cta : targets)
        mask |= 1 << cta;
    return mask == 3 ? "0b11" : mask == 1 ? "0x1" : "2";
}

} // namespace

bool arrive(Draft& d, int t, int mb, int inst, int expectTx) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const bool local = inst == c;
    ptx::MbarrierArrive a;
    a.expectTx = expectTx != 0;
    a.sem = r.pick({ptx::Sem::None, ptx::Sem::Release, ptx::Sem::Release, ptx::Sem::Relaxed});
    // A remote arrive goes through the cluster window and can return no phase token.
    a.scope = local ? mbScope(r) : Scope::Cluster;
    a.mb.space = local ? r.pick({PSpace::None, PSpace::SharedCta, PSpace::SharedCta, PSpace::Shared,
                                 PSpace::SharedCluster})
                       : PSpace::SharedCluster;
    a.mb.b64 = true;
    // Through the .shared::cluster window the state operand must be the sink (PTX ISA
    // {MbarrierArrive}).
    const bool token = a.mb.space != PSpace::SharedCluster && r.chance(35);
    // Now and then a local plain arrive is .noComplete with a count of 1: where it completes
    // the phase, mbarrier-misuse ({MbarrierArrive}).
    a.noComplete = !a.expectTx && a.mb.space != PSpace::SharedCluster && r.chance(8);
    const std::string st = token ? d.freshReg("tk") : "_";
    const CellKey k = d.key(mb, inst);
    // .multicast::cluster::32b (PTX ISA 9.4 {MbarrierArrive}): the arrive on the mbarrier at the
    // same offset in each CTA of the mask; it returns no state and has no .noComplete form
    const std::vector<int> targets = a.noComplete ? std::vector<int>{} : multicastTargets(d, t, mb);
    if (!targets.empty()) {
        a.multicast = true;
        a.mb.space = PSpace::SharedCluster; // the generated tests reach other CTAs through it
        if (a.scope == Scope::None && a.sem != ptx::Sem::None) a.scope = Scope::Cluster;
        if (a.scope != Scope::None && a.sem == ptx::Sem::None) a.sem = ptx::Sem::Release;
        d.emit(t, text(a, "_, " + d.addr(mb, c, c) +
                              (expectTx ? ", " + std::to_string(expectTx) : "") + ", " +
                              maskText(targets)));
        for (int cta : targets)
            d.mbArrive(d.key(mb, cta));
        return true;
    }
    d.emit(t, text(a, st + ", " + d.addr(mb, c, inst) +
                          (expectTx ? ", " + std::to_string(expectTx) : "") +
                          (a.noComplete ? ", 1" : "")));
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
    ptx::MbarrierWait w;
    w.parity = true;
    if (!tokens.empty() && r.chance(50)) {
        arg = r.pick(tokens);
        w.parity = false;
    }
    w.sem = r.pick({ptx::Sem::None, ptx::Sem::Acquire, ptx::Sem::Acquire, ptx::Sem::Relaxed});
    w.scope = w.sem == ptx::Sem::Relaxed ? r.pick({Scope::Cta, Scope::Cluster}) : mbScope(r);
    w.mb = {r.pick({PSpace::None, PSpace::SharedCta, PSpace::SharedCta, PSpace::Shared}), true};
    // .phase_type::* (9.3): primary is the default phase; conditional (with .parity only)
    // completes with it where no report-on operation intervenes ({MbarrierTestWaitTryWait})
    const int phase = r.pick({0, 0, 0, 0, 1, 2});
    w.phasePrimary = phase == 1;
    w.phaseConditional = phase == 2 && w.parity;
    const std::string dst = blocking ? "_" : d.freshReg("p");
    w.tryWait = r.pick({true, true, false});
    // The 9.3 report form `waitComplete|reportPredicate` (with .phase_type::primary): the
    // report is zero, no generated operation reports ({MbarrierTestWaitTryWait})
    const std::string rp = !blocking && w.phasePrimary && r.chance(50) ? d.freshReg("rp") : "";
    d.emit(t, text(w, dst + (rp.empty() ? "" : "|" + rp) + ", " + d.addr(mb, c, c) + ", " + arg));
    d.mbOp(k);
    if (!blocking) {
        d.define(t, dst, {1, 0});
        d.observe(t, dst, std::nullopt);
    }
    if (!rp.empty()) {
        d.define(t, rp, {0});
        d.observe(t, rp, std::nullopt);
    }
    return blocking ? "" : dst;
}

bool txOp(Draft& d, int t, int mb, int inst, bool complete, int bytes) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    ptx::MbarrierTx tx;
    tx.complete = complete;
    tx.relaxed = true;
    tx.scope = inst == c ? r.pick({Scope::Cta, Scope::Cluster}) : Scope::Cluster;
    tx.mb = {inst == c ? PSpace::SharedCta : PSpace::SharedCluster, true};
    // .multicast::cluster::32b (PTX ISA 9.4 {MbarrierExpectTx}, {MbarrierCompleteTx})
    const std::vector<int> targets = multicastTargets(d, t, mb);
    if (!targets.empty()) {
        tx.multicast = true;
        tx.mb.space = PSpace::SharedCluster;
        d.emit(t, text(tx,
                       d.addr(mb, c, c) + ", " + std::to_string(bytes) + ", " + maskText(targets)));
        for (int cta : targets)
            d.mbOp(d.key(mb, cta));
        return true;
    }
    d.emit(t, text(tx, d.addr(mb, c, inst) + ", " + std::to_string(bytes)));
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

/**
 * An arrive (or expect-tx/complete-tx) that happens in some executions only: guarded by a
 * predicate on a register the thread wrote, or issued after a spin on a loaded value.
 */
bool fragConditionalArrive(Draft& d) {
    if (!d.opt().generic) return false; // the load, setp and bra are generic instructions
    int t = d.pickThread();
    int inst = targetCta(d, t, true);
    int mb = d.pickMbarrier(t, inst);
    if (mb < 0) return false;
    if (d.rng().chance(35)) return spin(d, t) && arrive(d, t, mb, inst, 0);
    const std::string guard = runtimeGuard(d, t);
    if (guard.empty()) return false;
    bool ok = d.rng().chance(75) ? arrive(d, t, mb, inst, d.rng().chance(30) ? 16 : 0)
                                 : txOp(d, t, mb, inst, d.rng().chance(50), 16);
    if (!ok) return false;
    std::string& last = d.th(t).code.back();
    last = guard + last;
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> mbarrierFragments() {
    return {
        {fragArrive, 4}, {fragWait, 4}, {fragTx, 2}, {fragHandoff, 4}, {fragConditionalArrive, 2}};
}

} // namespace ptxmc::gen
