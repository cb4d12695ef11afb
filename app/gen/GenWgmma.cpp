// Hopper warpgroup MMA (PTX ISA 9.4 {Wgmma}): wgmma.fence, an mma from shared memory into an
// accumulator register of the thread (which stands for the warpgroup), commit_group,
// wait_group, and the thread's reads and writes of the accumulator, each sometimes left out or
// misplaced so that both sides of every rule of model/wgmma.cat come up.
#include "gen/Families.hpp"
#include "ptx/Print.hpp"

namespace ptxmc::gen {

namespace {

std::string mmaText(Rng& r, const std::string& acc, const std::string& a, const std::string& b,
                    bool accumulate) {
    ptx::WgmmaMma m;
    m.n = r.chance(70) ? 8 : 16; // two shapes: same-shape chaining and its exception
    return text(m, "{" + acc + "}, " + a + ", " + b + ", " + (accumulate ? "1" : "0") +
                       ", 1, 1, 0, 0");
}

bool fragWgmma(Draft& d) {
    Rng& r = d.rng();
    const int t = static_cast<int>(r.below(static_cast<std::uint64_t>(d.threads())));
    const int c = d.ctaOf(t);
    const int a = d.pickLoc(Space::Shared, c, false);
    const int b = d.pickLoc(Space::Shared, c, false);
    if (a < 0 || b < 0) return false;
    // The mmas' reads of a and b are reads of those cells; the accumulator is a register cell
    // the draft does not track, read at most twice (3 x 3 rf choices) and written at most
    // twice (2 coherence orders with two mmas), which untrackedChoices counts for every later
    // fragment too.
    const bool twoMmas = r.chance(15), movFirst = !twoMmas && r.chance(10);
    for (int i = 0; i < (twoMmas ? 2 : 1); ++i) {
        d.read(d.key(a, c));
        d.read(d.key(b, c));
    }
    d.untrackedChoices(twoMmas ? 18 : 9);
    if (d.candidates() > Draft::kMaxCandidates) return false;
    const std::string acc = d.initReg(t, r.range(0, 2), "acc");
    const std::string aa = d.addr(a, c, c), ba = d.addr(b, c, c);
    if (movFirst) d.emit(t, "mov.b32 " + acc + ", " + std::to_string(d.freshConst()));
    if (r.chance(85)) d.emit(t, text(ptx::WgmmaFence{}));
    d.emit(t, mmaText(r, acc, aa, ba, r.chance(70)));
    if (twoMmas) {
        if (r.chance(40)) d.emit(t, text(ptx::WgmmaFence{}));
        d.emit(t, mmaText(r, acc, ba, aa, true));
    }
    if (r.chance(85)) d.emit(t, text(ptx::WgmmaCommit{}));
    const bool early = !twoMmas && r.chance(20); // an access before the wait: wgmma-register-race
    if (early) {
        const std::string early_ = d.freshReg("e");
        d.emit(t, "mov.b32 " + early_ + ", " + acc);
        d.define(t, early_, {0});
        d.observe(t, early_, std::nullopt);
    }
    if (r.chance(85)) d.emit(t, text(ptx::WgmmaWait{}, std::to_string(r.chance(70) ? 0 : 1)));
    if (r.chance(25))
        d.emit(t, text(ptx::ProxyFence{ptx::ProxyKind::Async, ptx::StateSpace::None}));
    d.observe(t, acc, std::nullopt);
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> wgmmaFragments() {
    return {{fragWgmma, 4}};
}

} // namespace ptxmc::gen
