// Placement and memory layout of a litmus test on the GPU; refuses what hardware cannot mirror.
#include "hw/Plan.hpp"

#include <algorithm>
#include <functional>

namespace ptxmc::validate {

using ir::Tag;
using Space = ir::Space;

const char* archName(Arch a) {
    return a == Arch::Sm90a ? "sm_90a" : "sm_100a";
}

Refused::Refused(const SourceLoc& l, const std::string& w)
    : std::runtime_error(l.str() + ": cannot generate CUDA: " + w), loc(l), why(w) {}

void Plan::notFaithful(const SourceLoc& l, const std::string& why) const {
    if (!compileOnly) throw Refused(l, why);
    std::string text = l.str() + ": " + why;
    if (std::find(unfaithful.begin(), unfaithful.end(), text) == unfaithful.end())
        unfaithful.push_back(text);
}

const LocPlan& Plan::loc(const std::string& name) const {
    return locs.at(static_cast<std::size_t>(locIndex.at(name)));
}

std::string Plan::elementName(const std::string& array, int i) {
    return array + "[" + std::to_string(i) + "]";
}

const LocPlan& Plan::loc(const std::string& name, std::int64_t offset, const SourceLoc& at) const {
    auto a = arrays.find(name);
    if (a == arrays.end()) return loc(name);
    const ArrayPlan& arr = a->second;
    if (offset < 0 || offset % arr.stride != 0 || offset / arr.stride >= arr.elements)
        throw Refused(at, "offset " + std::to_string(offset) + " is no element of '" + name + "'");
    return locs.at(static_cast<std::size_t>(arr.first + offset / arr.stride));
}

/** red.async.release (.global, .gpu/.sys) requires sm_100 (PTX ISA {RedAsync}). */
static bool needsSm100(const ptx::Program& test) {
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (const auto* r = i.decoded ? i.decoded->as<ptx::RedAsync>() : nullptr;
                r && r->sem == ptx::Sem::Release)
                return true;
            // .cta_group on a tensor copy: ptxas says "Feature '.cta_group::2' not supported on
            // .target 'sm_90a'"
            if (const auto* c = i.decoded ? i.decoded->as<ptx::BulkCopy>() : nullptr;
                c && c->ctaGroup > 0)
                return true;
        }
    return false;
}

const litmus::Operand* tensorOperand(const ptx::Insn& in) {
    const auto* copy = in.as<ptx::BulkCopy>();
    if (!copy || copy->dims == 0) return nullptr;
    return &in.operand(copy->dst == ptx::StateSpace::Global ? 0 : 1);
}

bool usesTcgen05(const ptx::Program& test) {
    for (const auto& t : test.threads)
        for (const auto& i : t.code)
            if (i.decoded && i.decoded->family() == ptx::Family::Tcgen05) return true;
    return false;
}

bool usesWgmma(const ptx::Program& test) {
    for (const auto& t : test.threads)
        for (const auto& i : t.code)
            if (i.decoded && i.decoded->family() == ptx::Family::Wgmma) return true;
    return false;
}

namespace {

constexpr unsigned kTileBytes = 4096; // 128 rows x 32 bytes: any mma/cp operand footprint
constexpr unsigned kMaxShared = 227 * 1024;
constexpr unsigned kMapBytes = 128; // a tensor-map object (.b1024)

unsigned alignUp(unsigned v, unsigned a) {
    return (v + a - 1) / a * a;
}

using Insn = ptx::Insn;

/** An access through the surface, texture or constant proxy (sust, suld, tld, ldc, ...). */
bool isProxyOnly(const Insn& in) {
    if (auto* ld = in.as<ptx::Ld>()) return ld->name != ptx::LdName::Ld;
    if (auto* st = in.as<ptx::St>()) return st->name != ptx::StName::St;
    if (auto* at = in.as<ptx::Atom>())
        return at->name == ptx::AtomName::Suatom || at->name == ptx::AtomName::Sured;
    return false;
}

/** fence.proxy.tensormap::generic.acquire, which names the map it acquires. */
bool isTensormapAcquire(const Insn& in) {
    const auto* pf = in.as<ptx::ProxyFence>();
    return pf != nullptr && pf->kind == ptx::ProxyKind::Tensormap && pf->sem != ptx::Sem::Release;
}

/** Refusals that need no layout: other proxies, aliases, several GPUs, static
 *  deadlocks. */
void checkSupported(const ptx::Program& test, const ir::Program& program, const Plan& plan) {
    for (const auto& d : test.locations) {
        if (d.isMultimem())
            throw Refused(d.loc, "'" + d.name +
                                     "' is a multimem address, a location on each of several "
                                     "GPUs: the harness runs on one GPU");
        if (d.aliasOf)
            throw Refused(d.loc, "'" + d.name + "' aliases '" + *d.aliasOf + "' through the " +
                                     d.aliasProxy +
                                     " proxy; the harness maps each location to one "
                                     "allocation and has no second virtual address for it");
    }
    if (program.wordBits == 64) {
        SourceLoc at = test.threads.empty() ? SourceLoc{} : test.threads[0].loc;
        for (const auto& e : program.events)
            if (e.wide) {
                at = e.loc;
                break;
            }
        throw Refused(at, "64-bit values (a .b64, .u64 or .s64 access or operation): the "
                          "harness's locations, registers and outcomes are 32-bit words");
    }
    for (const auto& t : test.threads) {
        if (t.gpu != 0)
            throw Refused(t.loc, "threads on several GPUs: the harness runs on one GPU");
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            if (in.is<ptx::Nondet>())
                throw Refused(i.loc, "'nondet.pred' is ptxmc's choice of either value, explored "
                                     "both ways by the checker; a GPU run computes its "
                                     "predicates, so the test has no CUDA counterpart");
            if (in.is<ptx::Vote>() || in.is<ptx::Match>() || in.is<ptx::Activemask>() ||
                in.is<ptx::Redux>() || in.is<ptx::BarWarpSync>())
                throw Refused(i.loc, "'" + in.opcode +
                                         "' works across the lanes of a warp, which the checker "
                                         "takes to run the litmus thread with its values; the "
                                         "harness runs a warp's lanes as separate instances of "
                                         "the test where it can, so the lanes would belong to "
                                         "different instances");
            if (const auto* b = in.as<ptx::Barrier>(); b && b->red)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' combines the predicate of every thread at the "
                                         "barrier, each litmus thread counted as a warp of 32 "
                                         "lanes holding its predicate; the harness's lanes are "
                                         "separate instances of the test where it can, with "
                                         "predicates of their own");
            if (isProxyOnly(in))
                throw Refused(i.loc, "'" + in.opcode +
                                         "' needs a surface/texture/constant view of a global "
                                         "location, which the harness does not create");
            if (in.family() == ptx::Family::Tcgen05)
                for (const auto& op : in.operands)
                    if (op.kind == litmus::Operand::Kind::Vector && !op.elements.empty() &&
                        std::any_of(test.locations.begin(), test.locations.end(),
                                    [&](const auto& d) { return d.name == op.elements[0].name; }))
                        throw Refused(op.loc, "a list of tensor-memory slices (ptxmc kernel's "
                                              "accumulator slices): the harness maps each "
                                              "location to its own allocation, not to one "
                                              "accumulator's lanes and columns");
            if (const auto* c = in.as<ptx::BulkCopy>(); c && c->dims > 0 && c->reduce)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' reduces by its tensor map's element type (the "
                                         "tile's ', elem'), and the runner builds every map "
                                         "with UINT32 elements: no CUDA mapping yet");
            if (const auto* a = in.as<ptx::Atom>(); a && a->half != ptx::HalfType::None)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' works on 16-bit float elements, the low half of a "
                                         "cell; the harness maps 32-bit cells and emits 32-bit "
                                         "atomics: no CUDA mapping yet");
            if (const auto* c = in.as<ptx::BulkCopy>(); c && c->half != ptx::HalfType::None)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' reduces 16-bit float elements, 8 to a 16-byte chunk, "
                                         "where a cell stands for one: no CUDA mapping yet");
            if (const auto* c = in.as<ptx::BulkCopy>(); c && !c->loadMode.empty())
                throw Refused(i.loc, "'" + in.opcode + "' (." + c->loadMode +
                                         " mode) needs a tensor map of that mode; the runner "
                                         "builds tiled maps only: no CUDA mapping yet");
            if (const auto* pf = in.as<ptx::ProxyFence>();
                pf && (pf->kind == ptx::ProxyKind::GenericFabric ||
                       pf->kind == ptx::ProxyKind::FabricGeneric ||
                       pf->kind == ptx::ProxyKind::FabricFabric))
                throw Refused(i.loc, "'" + in.opcode +
                                         "' (a fabric proxy fence, sm_100, PTX ISA 9.3) has no "
                                         "CUDA mapping yet");
            if (const auto* pf = in.as<ptx::ProxyFence>(); pf && pf->readOnly)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' (.sync_restrict::shared::cluster::read, PTX ISA "
                                         "9.4): ptxas 13.0 rejects the modifier");
            if (in.is<ptx::ProxyFence>() &&
                in.as<ptx::ProxyFence>()->kind != ptx::ProxyKind::Async &&
                in.as<ptx::ProxyFence>()->kind != ptx::ProxyKind::Tensormap)
                throw Refused(i.loc, "'" + in.opcode +
                                         "' only matters with aliased or surface/texture/"
                                         "constant accesses, which the harness does not map");
        }
    }
    if (!program.staticDeadlocks.empty())
        plan.notFaithful(SourceLoc{test.file, 1, 1}, "the test cannot complete on hardware (" +
                                                         program.staticDeadlocks.front() +
                                                         "): bar.sync cannot time out");
}

/** Union-find over location names: copies link the encodings of their source and target. */
struct Classes {
    std::map<std::string, std::string> parent;
    std::string find(const std::string& a) {
        auto it = parent.find(a);
        if (it == parent.end() || it->second == a) return a;
        return parent[a] = find(it->second);
    }
    void unite(const std::string& a, const std::string& b) { parent[find(a)] = find(b); }
};

void layOutThreads(const ptx::Program& test, Plan& plan) {
    std::map<int, std::vector<int>> clusterMembers; // cluster key -> CTAs
    for (std::size_t i = 0; i < test.threads.size(); ++i) {
        const auto& t = test.threads[i];
        CtaPlan& c = plan.ctas[t.cta];
        c.cta = t.cta;
        c.threads.push_back(static_cast<int>(i));
        int key = t.cluster ? *t.cluster : -1 - t.cta;
        auto& members = clusterMembers[key];
        if (std::find(members.begin(), members.end(), t.cta) == members.end())
            members.push_back(t.cta);
    }
    for (auto& [key, members] : clusterMembers) {
        std::sort(members.begin(), members.end());
        if (members.size() > 8)
            throw Refused(SourceLoc{test.file, 1, 1},
                          "a cluster of " + std::to_string(members.size()) +
                              " CTAs; portable clusters hold at most 8");
        plan.clusterSize = std::max<unsigned>(plan.clusterSize, members.size());
    }
    for (auto& [key, members] : clusterMembers) {
        std::vector<int> ranks(plan.clusterSize, -1);
        for (std::size_t r = 0; r < members.size(); ++r) {
            ranks[r] = members[r];
            CtaPlan& c = plan.ctas[members[r]];
            c.litmusCluster = static_cast<int>(plan.clusterCtas.size());
            c.rank = static_cast<int>(r);
        }
        plan.clusterCtas.push_back(ranks);
    }
    for (const auto& [cta, c] : plan.ctas)
        plan.nMax = std::max<unsigned>(plan.nMax, c.threads.size());
    if (plan.tcMode) {
        // One instance per team; litmus thread k is warp 4k, so every litmus thread reaches
        // TMEM lanes 0-31 (warp w accesses lanes 32*(w%4)..+31).
        plan.rows = 1;
        plan.lanes = 1;
        plan.warps = 4 * plan.nMax;
    } else if (plan.wgMode) {
        // One instance per team; litmus thread k is warpgroup k (warps 4k..4k+3), as wgmma
        // needs: its .sync.aligned instructions run in all 128 threads.
        plan.rows = 1;
        plan.lanes = 1;
        plan.warps = 4 * plan.nMax;
    } else {
        // 32 instances per warp (one per lane), several rows of warps per CTA.
        plan.rows = std::max(1u, 8 / plan.nMax);
        plan.lanes = 32;
        plan.warps = plan.rows * plan.nMax;
    }
    if (plan.warps > 32)
        throw Refused(SourceLoc{test.file, 1, 1}, "more litmus threads in one CTA than fit");
    for (const auto& [cta, c] : plan.ctas)
        plan.activeWarpsPerTeam += static_cast<unsigned>(c.threads.size()) * plan.rows *
                                   (plan.wgMode ? 4u : 1u); // a warpgroup: four warps start
}

bool hasTensorCopies(const ptx::Program& test) {
    for (const auto& t : test.threads)
        for (const auto& i : t.code)
            if (!i.isLabel() && tensorOperand(i.insn())) return true;
    return false;
}

/** Largest bulk copy size of the test: every slot must hold one copy (16-byte aligned). A
 *  tensor copy moves its tensor's `bytes N`; with tensor copies a global slot is whole KiB, so
 *  that every slot starts on a row of any tensor map (maps are at most 256 words wide). */
unsigned maxCopyBytes(const ptx::Program& test) {
    unsigned m = 16;
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            if (const litmus::Operand* tensor = tensorOperand(in)) {
                for (const auto& d : test.locations)
                    if (d.name == tensor->name && d.bytes)
                        m = std::max<unsigned>(m, static_cast<unsigned>(*d.bytes));
            } else if (in.is<ptx::BulkCopy>() && in.operands.size() >= 3 &&
                       in.operand(2).kind == litmus::Operand::Kind::Integer) {
                m = std::max<unsigned>(m, static_cast<unsigned>(in.operand(2).value));
            }
        }
    return alignUp(m, 16);
}

/**
 * The box of each tensor's map: `bytes N` as rows of W words (W a power of two up to 256, the
 * widest box a map allows) times H rows; a 1d copy's box is one row. The runner builds the
 * maps over the whole global array, so a copy's coordinates name its instance's slot.
 */
void planTensorMaps(const ptx::Program& test, Plan& plan) {
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const litmus::Operand* tensor = tensorOperand(i.insn());
            if (!tensor) continue;
            const int rank = i.insn().as<ptx::BulkCopy>()->dims;
            auto arr = plan.arrays.find(tensor->name);
            const int first =
                arr != plan.arrays.end() ? arr->second.first : plan.locIndex.at(tensor->name);
            const int count = arr != plan.arrays.end() ? arr->second.elements : 1;
            LocPlan& head = plan.locs[static_cast<std::size_t>(first)];
            if (head.space != Space::Global)
                throw Refused(tensor->loc, "a tensor copy's tensor is a global location");
            const unsigned words = static_cast<unsigned>(head.decl->bytes.value_or(16)) / 4;
            unsigned width = 4;
            while (width < 256 && words % (width * 2) == 0)
                width *= 2;
            if (rank == 1) width = words;
            if (words % 4 != 0 || width > 256 || words / width > 256)
                throw Refused(tensor->loc, "a " + std::to_string(words * 4) +
                                               "-byte tile is no box of a " + std::to_string(rank) +
                                               "d tensor map (at most 256 words per row" +
                                               (rank == 1 ? "" : ", 256 rows") + ")");
            if (head.mapRank && head.mapRank != rank)
                throw Refused(tensor->loc, "'" + tensor->name +
                                               "' is copied as tensors of two ranks; the harness "
                                               "builds one map per location");
            for (int e = 0; e < count; ++e) {
                LocPlan& l = plan.locs[static_cast<std::size_t>(first + e)];
                l.mapRank = rank;
                l.mapWidth = width;
                l.mapHeight = words / width;
            }
        }
}

/** The location a memory operand names (an array's element 0: maps are never arrays). */
LocPlan& operandLoc(Plan& plan, const litmus::Operand& op) {
    return plan.locs[static_cast<std::size_t>(plan.locIndex.at(plan.loc(op.name, 0, op.loc).name))];
}

/** Records that `map` holds the map of the tensor at `tensor` (an index in Plan::locs). */
void holdsMap(LocPlan& map, int tensor, const Plan& plan, const SourceLoc& at) {
    if (map.decl->isArray())
        throw Refused(at, "'" + map.decl->name +
                              "' is an array of tensor maps: the harness "
                              "keeps one map per tensor");
    if (map.mapOf >= 0 && map.mapOf != tensor)
        throw Refused(at, "'" + map.name + "' holds the maps of '" +
                              plan.locs[static_cast<std::size_t>(map.mapOf)].name + "' and '" +
                              plan.locs[static_cast<std::size_t>(tensor)].name +
                              "': the harness builds one map per tensor");
    map.mapOf = tensor;
}

/** Map instructions (replace, cp_fenceproxy, the acquire fence) act on maps, others on no map. */
void checkMapAccess(const Insn& in, const SourceLoc& at, bool mapInstructions, Plan& plan) {
    const bool onMap =
        in.is<ptx::TensormapReplace>() || in.is<ptx::TensormapCopy>() || isTensormapAcquire(in);
    if (onMap != mapInstructions) return;
    if (const auto* r = in.as<ptx::TensormapReplace>(); r && r->field != "global_address")
        throw Refused(at, "tensormap.replace of ." + r->field +
                              ": only .global_address is mapped (to the tensor's own array)");
    for (const auto& op : in.operands) {
        if (op.kind != litmus::Operand::Kind::Memory || !plan.locIndex.count(op.name) ||
            tensorOperand(in) == &op)
            continue;
        const LocPlan& l = operandLoc(plan, op);
        if (onMap && l.mapOf < 0 && &op == &in.operands.front())
            throw Refused(op.loc, "'" + l.name +
                                      "' holds no tensor's map (no location names it "
                                      "with `tensormap`, no cp_fenceproxy publishes it)");
        if (!onMap && l.mapOf >= 0)
            throw Refused(op.loc, "'" + in.opcode + "' on the tensor map '" + l.name +
                                      "': on the device every version of a map is the runner's "
                                      "map, whose bytes are no version number");
    }
}

/**
 * Tensor maps in memory (`C ... tensormap tm`; tensormap.replace, tensormap.cp_fenceproxy and
 * the acquire fence on a map). The model's map value is a version that does not change what a
 * copy moves, so on the device every version is the one map the runner builds for C: a global
 * map location is that map, a shared one each instance's copy of it, and a replaced
 * global_address is C's array again. Anything that would read or write a map's bytes as a
 * number (ld, st, a version in the final condition) is refused.
 */
void planMapsInMemory(const ptx::Program& test, Plan& plan) {
    for (const auto& d : test.locations) {
        if (!d.tensormap) continue;
        if (d.isArray())
            throw Refused(d.tensormapLoc, "an array of tensors with its map in memory: the "
                                          "harness builds one map per tensor location");
        const int tensor = plan.locIndex.at(d.name);
        if (plan.locs[static_cast<std::size_t>(tensor)].mapRank == 0)
            throw Refused(d.tensormapLoc, "no tensor copy moves '" + d.name +
                                              "', so the "
                                              "harness builds no map for '" +
                                              *d.tensormap + "'");
        LocPlan& map = plan.locs[static_cast<std::size_t>(plan.locIndex.at(*d.tensormap))];
        if (map.space != Space::Global)
            throw Refused(d.tensormapLoc, "'" + *d.tensormap +
                                              "' is a tensor map in shared "
                                              "memory: a copy names its map in global memory");
        holdsMap(map, tensor, plan, d.tensormapLoc);
    }
    // a shared map is a copy of the global map cp_fenceproxy publishes it to
    for (const auto& t : test.threads)
        for (const auto& i : t.code)
            if (!i.isLabel() && i.insn().is<ptx::TensormapCopy>()) {
                const LocPlan& dst = operandLoc(plan, i.insn().operand(0));
                if (dst.mapOf < 0)
                    throw Refused(i.loc, "'" + dst.name +
                                             "' holds no tensor's map (no location "
                                             "names it with `tensormap`)");
                holdsMap(operandLoc(plan, i.insn().operand(1)), dst.mapOf, plan, i.loc);
            }
    // first what would use a map's bytes as a number, then map instructions on other locations
    for (const bool mapInstructions : {false, true})
        for (const auto& t : test.threads)
            for (const auto& i : t.code)
                if (!i.isLabel()) checkMapAccess(i.insn(), i.loc, mapInstructions, plan);
}

/** The address the model's tcgen05.alloc at `at` stores (lane 0, its column block). */
std::int64_t allocAddress(const ir::Program& program, const SourceLoc& at) {
    for (const auto& e : program.events)
        if (e.has(Tag::ALLOC) && e.loc.line == at.line && e.loc.col == at.col) return e.tmemAddress;
    throw Refused(at, "tcgen05.alloc without its lowered event");
}

void assignEncodings(const ptx::Program& test, const ir::Program& program, Plan& plan) {
    Classes classes;
    std::map<std::string, std::pair<Encoding, SourceLoc>> forced;
    auto force = [&](const litmus::Operand& op, Encoding e, const SourceLoc& at) {
        auto it = forced.find(op.name);
        if (it != forced.end() && it->second.first != e) {
            plan.notFaithful(at, "'" + op.name +
                                     "' would need two value encodings (an mma accumulator is "
                                     "f32, its operands f16, a TMEM address neither)");
            return;
        }
        forced[op.name] = {e, at};
    };
    // Names are declarations' (an array's elements share its encoding and its tile shape).
    auto markTile = [&plan](const std::string& declared) {
        for (LocPlan& l : plan.locs)
            if (l.decl->name == declared && l.space == Space::Shared) l.tile = true;
    };
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            if (in.is<ptx::Tcgen05Mma>()) {
                force(in.operand(0), Encoding::F32, i.loc);
                force(in.operand(1), Encoding::F16, i.loc);
                force(in.operand(2), Encoding::F16, i.loc);
                for (int k : {1, 2})
                    markTile(in.operand(static_cast<std::size_t>(k)).name);
            } else if (in.is<ptx::WgmmaMma>()) {
                // d is a register (its f32 fragment); A and B are shared-memory f16 tiles
                for (int k : {1, 2}) {
                    const litmus::Operand& op = in.operand(static_cast<std::size_t>(k));
                    if (op.kind != litmus::Operand::Kind::Memory)
                        continue; // A from registers: the emitter refuses it
                    force(op, Encoding::F16, i.loc);
                    markTile(op.name);
                }
            } else if (in.is<ptx::Tcgen05Cp>()) {
                classes.unite(in.operand(0).name, in.operand(1).name);
                markTile(in.operand(1).name);
            } else if (in.is<ptx::BulkCopy>()) {
                classes.unite(in.operand(0).name, in.operand(1).name);
            } else if (in.is<ptx::Tcgen05Alloc>() && !in.as<ptx::Tcgen05Alloc>()->dealloc) {
                force(in.operand(0), Encoding::TmemAddr, i.loc);
                plan.litmusAlloc = true;
                // The address the model stores; the harness maps the hardware's to it.
                const litmus::Operand& slot = in.operand(0);
                LocPlan& l = plan.locs[static_cast<std::size_t>(
                    plan.locIndex.at(plan.loc(slot.name, slot.value, slot.loc).name))];
                if (l.allocToken >= 0) // a compile-only kernel still goes to ptxas
                    plan.notFaithful(i.loc, "'" + l.name + "' receives two TMEM addresses");
                else
                    l.allocToken = allocAddress(program, i.loc);
            }
        }
    std::map<std::string, std::pair<Encoding, SourceLoc>> byClass;
    for (const auto& [name, e] : forced) {
        std::string root = classes.find(name);
        auto it = byClass.find(root);
        if (it != byClass.end() && it->second.first != e.first) {
            plan.notFaithful(e.second, "'" + name +
                                           "' is copied to or from a location that needs another "
                                           "value encoding (f16 operand, f32 accumulator or TMEM "
                                           "address)");
            continue;
        }
        byClass[root] = e;
    }
    for (LocPlan& l : plan.locs) {
        auto it = byClass.find(classes.find(l.decl->name));
        if (it == byClass.end()) continue;
        l.encoding = it->second.first;
        if (l.encoding == Encoding::TmemAddr && classes.find(l.decl->name) != l.decl->name)
            plan.notFaithful(l.decl->loc, "'" + l.name +
                                              "' receives a TMEM address and is also copied: its "
                                              "value would not be a token");
        for (std::int64_t v : l.init) {
            if (l.encoding == Encoding::F16 && (v < -2048 || v > 2048))
                plan.notFaithful(l.decl->loc,
                                 "'" + l.name + "' is an mma operand (f16): " + std::to_string(v) +
                                     " is not exact in f16 (|v| <= 2048 is)");
            if (l.encoding == Encoding::F32 && (v < -(1 << 24) || v > (1 << 24)))
                plan.notFaithful(l.decl->loc, "'" + l.name + "' is an mma accumulator (f32): " +
                                                  std::to_string(v) + " is not exact in f32");
        }
    }
}

/** Rows of warps per CTA: the warps and those that start per team follow. */
void setRows(Plan& plan, unsigned rows) {
    plan.rows = rows;
    plan.warps = plan.rows * plan.nMax;
    plan.activeWarpsPerTeam = 0;
    for (const auto& [cta, c] : plan.ctas)
        plan.activeWarpsPerTeam += static_cast<unsigned>(c.threads.size()) * plan.rows;
}

/** Shared memory per CTA under the current instances per CTA; sets every region's offset. */
unsigned sharedLayout(Plan& plan, unsigned copy, bool tensors) {
    // A tensor copy's shared side is 128-byte aligned (PTX ISA 9.7.10.28.5.3); a bulk copy's
    // 16-byte aligned.
    const unsigned align = tensors ? 128 : 16;
    const unsigned slot = alignUp(copy, align);
    unsigned off = 0;
    // Tiles first (1 KiB aligned, as matrix descriptors like), then slots, then mbarriers.
    for (LocPlan& l : plan.locs)
        if (l.space == Space::Shared && l.tile) {
            if (!plan.single())
                throw Refused(l.decl->loc, "matrix tiles only exist in tcgen05 and wgmma tests");
            off = alignUp(off, 1024);
            l.offset = off;
            l.slotBytes = std::max(kTileBytes, alignUp(copy, 1024)); // a tensor load's tile
            off += l.slotBytes * plan.perCta();
        }
    for (LocPlan& l : plan.locs)
        if (l.space == Space::Shared && !l.tile) {
            off = alignUp(off, align);
            l.offset = off;
            l.slotBytes = slot;
            off += slot * plan.perCta();
        }
    for (LocPlan& l : plan.locs)
        if (l.space == Space::Mbarrier) {
            off = alignUp(off, 8);
            l.offset = off;
            l.slotBytes = 8;
            off += 8 * plan.perCta();
        }
    off = alignUp(off, 16);
    plan.harnessOffset = off; // TMEM address slot (16 bytes), one mbarrier per litmus thread
    off += 16 + 8 * plan.nMax;
    off = alignUp(off, 16);
    off += 4096; // shared scratch hammered by idle warps
    return off;
}

void layOutMemory(const ptx::Program& test, Plan& plan) {
    unsigned copy = maxCopyBytes(test);
    for (const LocPlan& l : plan.locs)
        if (l.mapOf >= 0 && l.space == Space::Shared) copy = std::max(copy, kMapBytes);
    const bool tensors = hasTensorCopies(test);
    plan.globalSlotWords = (tensors ? alignUp(copy, 1024) : copy) / 4;
    unsigned bytes = sharedLayout(plan, copy, tensors);
    // Large copies (a tensor tile is up to 16 KiB per instance): fewer lanes per warp run an
    // instance, then fewer rows of warps, until the CTA's slots fit.
    while (bytes > kMaxShared && !plan.single() && (plan.lanes > 1 || plan.rows > 1)) {
        if (plan.lanes > 1)
            plan.lanes /= 2;
        else
            setRows(plan, plan.rows / 2);
        bytes = sharedLayout(plan, copy, tensors);
    }
    plan.sharedBytes = bytes;
    if (bytes > kMaxShared)
        throw Refused(SourceLoc{test.file, 1, 1},
                      "needs " + std::to_string(bytes) + " bytes of shared memory per CTA");
}

/** IDESC names map to distinct real shapes: N grows with each new name (M is fixed). */
void layOutTmem(const ptx::Program& test, Plan& plan) {
    unsigned step = plan.ctaGroup == 2 ? 32 : 16;
    std::map<std::string, std::set<unsigned>> dWidths; // D location -> N of the mmas writing it
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            auto* mma = in.as<ptx::Tcgen05Mma>();
            if (!mma) continue;
            // The model reads these operands without their values (lower/Tcgen05.cpp): a run
            // would compute values ptxmc does not predict.
            if (mma->ws || mma->sp || mma->blockScale || mma->lutB)
                throw Refused(i.loc, "tcgen05.mma with .ws, .sp, .block_scale or "
                                     ".decompress::lut::b is not emitted: its metadata, scale "
                                     "and look-up operands change D in ways the model's values "
                                     "do not follow");
            // .ashift moves A's rows, which one word per location does not follow; collector
            // qualifiers make reuse the hardware's choice ("reuse is opportunistic"), so a run
            // would not tell the model's reload from a reuse (and ::b needs sm_107f).
            if (mma->ashift || mma->collectorA || mma->collectorB)
                throw Refused(i.loc, "tcgen05.mma with .ashift or a collector qualifier is not "
                                     "emitted: the rows it shifts and the buffer it reuses are "
                                     "not in the model's values");
            const std::string& name = in.operand(3).name;
            if (!plan.idescN.count(name))
                plan.idescN[name] = step * static_cast<unsigned>(plan.idescN.size() + 1);
            const std::string& kind = mma->kind;
            if (kind != "f16" && kind != "tf32" && kind != "f8f6f4" && kind != "i8")
                throw Refused(i.loc, "tcgen05.mma.kind::" + kind + " is not emitted");
            if (kind != "f16")
                plan.notFaithful(i.loc, "only tcgen05.mma.kind::f16 is mapped (f16 operands, f32 "
                                        "accumulator); kind::" +
                                            kind + " would change the arithmetic");
            dWidths[in.operand(0).name].insert(plan.idescN[name]);
        }
    unsigned width = 32;
    for (const auto& [name, n] : plan.idescN)
        width = std::max(width, n);
    unsigned col = 0;
    for (LocPlan& l : plan.locs) {
        if (l.space != Space::Tmem) continue;
        if (l.rows > 32)
            throw Refused(l.decl->loc, "more than 32 rows: one warp reaches 32 TMEM lanes");
        l.column = col;
        l.columns = width;
        col += width;
        auto it = dWidths.find(l.name);
        if (plan.ctaGroup == 2 && it != dWidths.end()) {
            if (it->second.size() > 1)
                plan.notFaithful(l.decl->loc, "cta_group::2 accumulator '" + l.name +
                                                  "' written with two shapes: its cell in the odd "
                                                  "CTA would move");
            l.oddShift = *it->second.begin() / 2;
        }
    }
    if (col == 0) return;
    plan.tmemCols = 32;
    while (plan.tmemCols < col)
        plan.tmemCols *= 2;
    if (plan.tmemCols > 512)
        throw Refused(SourceLoc{test.file, 1, 1}, "needs more than 512 TMEM columns");
    if (plan.litmusAlloc) // ptxas still checks its instructions (compile-only kernel)
        plan.notFaithful(SourceLoc{test.file, 1, 1},
                         "the test allocates TMEM itself and also declares tensor-memory "
                         "locations, which the harness allocates");
}

void checkTcgen05Rules(const ptx::Program& test, const ir::Program& program, Plan& plan) {
    for (const auto& e : program.events)
        if (e.ctaGroup) plan.ctaGroup = e.ctaGroup;
    for (std::size_t ti = 0; ti < test.threads.size(); ++ti) {
        bool allocated = false;
        for (const auto& i : test.threads[ti].code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            if (in.is<ptx::Tcgen05Mma>() || in.is<ptx::Tcgen05Cp>() || in.is<ptx::Tcgen05Shift>())
                plan.asyncIssuers.insert(static_cast<int>(ti));
            if (auto* a = in.as<ptx::Tcgen05Alloc>()) allocated = !a->dealloc;
        }
        if (allocated) // ptxas still checks its instructions (compile-only kernel)
            plan.notFaithful(test.threads[ti].loc,
                             "P" + std::to_string(test.threads[ti].id) +
                                 " allocates TMEM without deallocating it: the next CTA on the SM "
                                 "would wait for the columns forever");
    }
}

/**
 * "barrier.cluster.wait instruction causes the executing thread to wait for all non-exited
 * threads of the cluster to perform barrier.cluster.arrive" (PTX ISA 9.7.15.3
 * #parallel-synchronization-and-communication-instructions-barrier-cluster), and on the device
 * those include the harness's idle and stress warps. So each litmus thread of a cluster must run
 * the same arrive/wait pairs in straight-line code; the kernel has the cluster's other threads
 * run as many.
 */
void countClusterPhases(const ptx::Program& test, Plan& plan) {
    plan.clusterPhases.assign(plan.clusterCtas.size(), 0);
    std::vector<int> seen(plan.clusterCtas.size(), -1); // pairs of the first thread counted
    for (const auto& t : test.threads) {
        unsigned pairs = 0;
        bool arrived = false, labels = false;
        SourceLoc first;
        for (const auto& i : t.code) {
            if (i.isLabel()) {
                labels = true;
                continue;
            }
            const auto* b = i.insn().as<ptx::Barrier>();
            if (!b || !b->cluster) continue;
            if (pairs == 0 && !arrived) first = i.loc;
            if (b->arrive == arrived)
                throw Refused(i.loc, "barrier.cluster arrive and wait do not alternate in P" +
                                         std::to_string(t.id) +
                                         ": the harness's other threads "
                                         "run arrive/wait pairs");
            arrived = !arrived;
            if (!arrived) ++pairs;
        }
        if (arrived)
            throw Refused(t.loc, "P" + std::to_string(t.id) +
                                     " arrives on barrier.cluster without waiting: the harness's "
                                     "other threads run arrive/wait pairs");
        if (pairs > 0 && labels)
            throw Refused(first, "barrier.cluster in a thread with control flow: the harness's "
                                 "other threads run a fixed number of arrive/wait pairs");
        const auto k = static_cast<std::size_t>(plan.ctas.at(t.cta).litmusCluster);
        if (seen[k] >= 0 && static_cast<unsigned>(seen[k]) != pairs)
            throw Refused(t.loc, "the threads of cluster " + std::to_string(k) +
                                     " run different numbers of barrier.cluster pairs");
        seen[k] = static_cast<int>(pairs);
        plan.clusterPhases[k] = pairs;
    }
    const bool any = std::any_of(plan.clusterPhases.begin(), plan.clusterPhases.end(),
                                 [](unsigned n) { return n > 0; });
    if (any && plan.wgMode)
        throw Refused(SourceLoc{test.file, 1, 1},
                      "barrier.cluster in a wgmma test: a litmus thread is a warpgroup, not "
                      "mapped yet");
}

void assignBarriers(const ptx::Program& test, Plan& plan) {
    countClusterPhases(test, plan);
    for (const auto& t : test.threads)
        for (const auto& i : t.code) {
            if (i.isLabel()) continue;
            const Insn& in = i.insn();
            const auto* b = in.as<ptx::Barrier>();
            if (!b || b->cluster) continue;
            if (b->arrive) throw Refused(i.loc, "'" + in.opcode + "' has no CUDA mapping yet");
            int id = static_cast<int>(in.operand(0).value);
            if (!plan.barrierIds.count(id)) {
                int hw = static_cast<int>(plan.barrierIds.size()) + 1; // 0 is the harness's
                if (hw > 15) throw Refused(i.loc, "more than 15 barrier ids");
                plan.barrierIds[id] = hw;
            }
        }
}

} // namespace

Plan makePlan(const ptx::Program& test, const ir::Program& program, bool compileOnly) {
    Plan plan;
    plan.compileOnly = compileOnly;
    checkSupported(test, program, plan);
    plan.tcMode = usesTcgen05(test);
    plan.wgMode = usesWgmma(test);
    if (plan.tcMode && plan.wgMode)
        throw Refused(SourceLoc{test.file, 1, 1},
                      "tcgen05 and wgmma in one test: a litmus thread cannot be both a warp "
                      "(sm_100a) and a warpgroup");
    plan.arch = plan.tcMode || needsSm100(test) ? Arch::Sm100a : Arch::Sm90a;
    if (plan.wgMode && plan.arch != Arch::Sm90a)
        throw Refused(SourceLoc{test.file, 1, 1},
                      "wgmma exists only on sm_90a; this test also needs sm_100a");
    layOutThreads(test, plan);
    int counts[5] = {}; // by ir::Space
    for (const auto& d : test.locations) {
        // an array's elements are locations of their own, each with its own slots
        const int elements = d.isArray() ? d.rows : 1;
        if (d.isArray())
            plan.arrays[d.name] = {elements, d.stride, static_cast<int>(plan.locs.size())};
        for (int e = 0; e < elements; ++e) {
            LocPlan l;
            l.decl = &d;
            l.name = d.isArray() ? Plan::elementName(d.name, e) : d.name;
            l.space = d.space;
            l.index = counts[static_cast<int>(d.space)]++;
            l.ctas = d.ctas;
            l.rows = d.isArray() ? 1 : d.rows;
            auto initial = [&](int r) {
                return d.values.empty()       ? 0
                       : d.values.size() == 1 ? d.values[0]
                                              : d.values[static_cast<std::size_t>(r)];
            };
            if (d.isArray())
                l.init.push_back(initial(e));
            else
                for (int r = 0; r < d.rows; ++r)
                    l.init.push_back(initial(r));
            l.mbCount = d.count.value_or(0);
            if (d.space != Space::Global)
                for (int c : d.ctas)
                    if (!plan.ctas.count(c))
                        throw Refused(d.loc, "'" + d.name + "' lives in CTA " + std::to_string(c) +
                                                 ", where no thread runs");
            plan.locIndex[l.name] = static_cast<int>(plan.locs.size());
            plan.locs.push_back(l);
        }
    }
    plan.globals = static_cast<unsigned>(counts[static_cast<int>(Space::Global)]);
    if (plan.tcMode) checkTcgen05Rules(test, program, plan);
    assignEncodings(test, program, plan);
    planTensorMaps(test, plan);
    planMapsInMemory(test, plan);
    layOutMemory(test, plan);
    if (plan.tcMode) layOutTmem(test, plan);
    assignBarriers(test, plan);
    return plan;
}

} // namespace ptxmc::validate
