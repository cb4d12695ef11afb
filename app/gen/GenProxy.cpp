// Mixed-proxy accesses through aliases (surface, texture, constant, generic) and proxy fences.
#include "gen/Families.hpp"

namespace ptxmc::gen {

std::string aliasRead(Draft& d, int t, int root) {
    Rng& r = d.rng();
    // A generic alias is read with ld, a generic-proxy instruction.
    const std::string proxy = d.opt().generic
                                  ? r.pick({"surface", "texture", "constant", "generic"})
                                  : r.pick({"surface", "texture", "constant"});
    const int a = d.aliasOf(root, proxy);
    if (a < 0) return "";
    if (proxy == "generic") return load(d, t, a, -1); // a second virtual address of root
    using ptx::LdName;
    const LdName name = proxy == "surface"   ? LdName::Suld
                        : proxy == "texture" ? LdName::Tld
                                             : r.pick({LdName::Cold, LdName::Ldc});
    const ptx::Ld op{name, ptx::Sem::Weak, ptx::Scope::None, ptx::StateSpace::None, {}};
    const std::string reg = d.freshReg("r");
    const CellKey k = d.key(a, -1);
    d.emit(t, text(op, reg + ", " + d.addr(a, d.ctaOf(t), -1, 0, r.chance(20))));
    d.define(t, reg, d.read(k));
    d.observe(t, reg, k);
    return reg;
}

bool aliasWrite(Draft& d, int t, int root, std::optional<std::int64_t> value) {
    // Texture and constant memory are read-only: writes go through a surface or generic alias.
    const bool surface = !d.opt().generic || d.rng().chance(65);
    const int a = d.aliasOf(root, surface ? "surface" : "generic");
    if (a < 0) return false;
    if (!surface) return store(d, t, a, -1, value);
    std::vector<std::int64_t> values;
    const std::string v = d.storedValue(t, value, values);
    const ptx::St sust{
        ptx::StName::Sust, ptx::Sem::Weak, ptx::Scope::None, ptx::StateSpace::None, {}};
    d.emit(t, text(sust, d.addr(a, d.ctaOf(t), -1, 0, d.rng().chance(20)) + ", " + v));
    d.write(d.key(a, -1), values);
    return true;
}

void asyncFence(Draft& d, int t, std::optional<Space> space) {
    Rng& r = d.rng();
    using S = ptx::StateSpace;
    ptx::ProxyFence f{ptx::ProxyKind::Async, S::None};
    if (!space)
        f.space = r.pick({S::None, S::Global, S::SharedCta, S::SharedCluster});
    else if (*space == Space::Global)
        f.space = r.pick({S::None, S::Global, S::Global});
    else
        f.space = r.pick({S::None, S::SharedCta, S::SharedCta, S::SharedCluster});
    d.emit(t, text(f));
}

void proxyFence(Draft& d, int t) {
    Rng& r = d.rng();
    if (r.chance(30)) return asyncFence(d, t);
    using K = ptx::ProxyKind;
    d.emit(t, text(ptx::ProxyFence{r.pick({K::Alias, K::Surface, K::Texture, K::Constant}),
                                   ptx::StateSpace::None}));
}

namespace {

bool fragAliasRead(Draft& d) {
    int t = d.pickThread();
    int root = d.pickLoc(Space::Global, -1, false);
    return root >= 0 && !aliasRead(d, t, root).empty();
}

bool fragAliasWrite(Draft& d) {
    int t = d.pickThread();
    int root = d.pickLoc(Space::Global, -1, true);
    return root >= 0 && aliasWrite(d, t, root);
}

bool fragProxyFence(Draft& d) {
    proxyFence(d, d.pickThread());
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> proxyFragments() {
    return {{fragAliasRead, 5}, {fragAliasWrite, 4}, {fragProxyFence, 4}};
}

} // namespace ptxmc::gen
