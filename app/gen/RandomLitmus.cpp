// Entry point: the test's shape, random fragments until the budget is spent, the condition.
#include "gen/RandomLitmus.hpp"

#include "gen/Families.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

/** One instruction for a thread that got none, from an enabled family. */
bool filler(Draft& d, int t) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    std::vector<int> w{o.generic ? 4 : 0, o.proxies ? 1 : 0,  o.tcgen05 ? 1 : 0,
                       o.bulk ? 1 : 0,    o.mbarrier ? 2 : 0, o.wgmma ? 1 : 0};
    switch (r.weighted(w)) {
    case 0: {
        int l = -1, inst = -1;
        if (r.chance(60) && pickData(d, t, false, l, inst)) return !load(d, t, l, inst).empty();
        memoryFence(d, t);
        return true;
    }
    case 1:
        proxyFence(d, t);
        return true;
    case 2:
        tcFence(d, t, r.chance(50));
        return true;
    case 3:
        d.emit(t, text(ptx::BulkCommit{}));
        return true;
    case 4: {
        const int mb = d.pickMbarrier(t, d.ctaOf(t));
        return mb >= 0 && arrive(d, t, mb, d.ctaOf(t), 0);
    }
    default:
        d.emit(t, text(ptx::WgmmaFence{}));
        return true;
    }
}

/** An instruction that needs no location, so it always fits. mbarrier operations all need
 * an mbarrier: a test of that family alone falls back to a generic fence. */
void lastResort(Draft& d, int t) {
    const GenOptions& o = d.opt();
    if (o.proxies && !o.generic)
        d.emit(t, text(ptx::ProxyFence{ptx::ProxyKind::Alias, ptx::StateSpace::None}));
    else if (o.tcgen05 && !o.generic)
        tcFence(d, t, true);
    else if (o.bulk && !o.generic)
        d.emit(t, text(ptx::BulkCommit{}));
    else if (o.wgmma && !o.generic)
        d.emit(t, text(ptx::WgmmaFence{}));
    else
        memoryFence(d, t);
}

} // namespace

std::string randomLitmus(std::uint64_t seed, const GenOptions& options) {
    GenOptions o = options;
    o.maxThreads = std::clamp(o.maxThreads, 1, 4);
    o.maxCtas = std::clamp(o.maxCtas, 1, 2);
    o.maxInstructions = std::max(o.maxInstructions, 1);
    if (!(o.tcgen05 || o.mbarrier || o.bulk || o.proxies || o.generic || o.wgmma)) o.generic = true;
    Rng rng(seed);
    Draft d(o, rng);

    const std::vector<std::pair<bool, std::vector<std::pair<Fragment, int>>>> families{
        {o.generic, genericFragments()},   {o.proxies, proxyFragments()},
        {o.mbarrier, mbarrierFragments()}, {o.bulk, bulkFragments()},
        {o.tcgen05, tcgen05Fragments()},   {o.wgmma, wgmmaFragments()}};
    std::vector<int> enabled;
    for (int i = 0; i < static_cast<int>(families.size()); ++i)
        if (families[static_cast<std::size_t>(i)].first) enabled.push_back(i);
    // One or two focus families get most of the weight: a test goes deep into one area
    // instead of sampling a little of everything.
    const int focus = rng.pick(enabled);
    const int focus2 = rng.chance(40) ? rng.pick(enabled) : -1;
    std::vector<Fragment> table;
    std::vector<int> weights;
    for (int i : enabled)
        for (const auto& [f, w] : families[static_cast<std::size_t>(i)].second) {
            table.push_back(f);
            weights.push_back(w * (i == focus || i == focus2 ? 4 : 1));
        }
    int sum = 0;
    for (int w : weights)
        sum += w;
    table.push_back(messagePassing);
    weights.push_back(std::max(1, sum / (rng.chance(50) ? 3 : 8)));

    const int budget = std::max(o.maxInstructions, d.threads());
    const int target = rng.range(std::min(budget, std::max(2, d.threads() + 1)), budget);
    for (int attempts = 0; d.total() < target && attempts < 60; ++attempts) {
        const Fragment f = table[static_cast<std::size_t>(rng.weighted(weights))];
        Draft saved = d;
        if (!f(d) || !d.fits()) d = saved;
    }
    for (int t = 0; t < d.threads(); ++t) {
        for (int tries = 0; tries < 20 && d.th(t).code.empty(); ++tries) {
            Draft saved = d;
            if (!filler(d, t) || !d.fits()) d = saved;
        }
        if (d.th(t).code.empty()) lastResort(d, t);
    }
    if (o.generic && rng.chance(8)) {
        Draft saved = d;
        if (!exitThenBarrier(d) || !d.fits()) d = saved;
    }
    const std::string cond = condition(d);
    return d.render("gen-" + std::to_string(seed), cond);
}

} // namespace ptxmc::gen
