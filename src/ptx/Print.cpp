// The PTX printer: one canonical qualifier order per family (the order the PTX ISA writes).
#include "ptx/Print.hpp"

#include "ptx/Tables.hpp"

#include <array>

namespace ptxmc::ptx {

namespace {

/** Appends `.q` when `q` is not empty. */
struct Text {
    std::string s;
    Text& q(std::string_view part) {
        if (!part.empty()) s.append(".").append(part);
        return *this;
    }
    Text& q(bool present, std::string_view part) { return present ? q(part) : *this; }
    Text& types(const std::vector<Type>& ts) {
        for (const Type& t : ts)
            q(t.kind == 'p' ? std::string("pred") : t.kind + std::to_string(t.bits));
        return *this;
    }
    Text& group(int g) { return q("cta_group::" + std::to_string(g)); }
    /** The space, then `extra` (a qualifier written between the space and .b64), then .b64. */
    Text& mb(const MbarrierOperand& m, const std::string& extra = "") {
        return q(nameOf(kSpaces, m.space)).q(extra).q(m.b64, "b64");
    }
};

Text start(std::string_view name) {
    return Text{std::string(name)};
}

std::string_view ldName(LdName n) {
    static const std::array<std::string_view, 5> names = {"ld", "suld", "tld", "cold", "ldc"};
    return names[static_cast<std::size_t>(n)];
}

std::string_view atomName(AtomName n) {
    static const std::array<std::string_view, 4> names = {"atom", "suatom", "red", "sured"};
    return names[static_cast<std::size_t>(n)];
}

std::string_view arithName(ArithOp op) {
    static const std::array<std::string_view, 6> names = {"add", "sub", "mul", "and", "or", "xor"};
    return names[static_cast<std::size_t>(op)];
}

std::string_view membarName(Scope s) {
    return s == Scope::Cta ? "cta" : s == Scope::Gpu ? "gl" : "sys";
}

struct Printer {
    std::string operator()(const Ld& i) const {
        return start(ldName(i.name))
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.space))
            .types(i.types)
            .s;
    }
    std::string operator()(const St& i) const {
        if (i.async && i.sem == Sem::Release)
            return start("st.async")
                .q(i.mmio, "mmio")
                .q(semName(i.sem))
                .q(scopeName(i.scope))
                .q(nameOf(kSpaces, i.space))
                .types(i.types)
                .s;
        if (i.async)
            return start("st.async")
                .q(semName(i.sem))
                .q(scopeName(i.scope))
                .q(nameOf(kSpaces, i.space))
                .q("mbarrier::complete_tx::bytes")
                .q(i.vec != 1, "v" + std::to_string(i.vec))
                .types(i.types)
                .s;
        return start(i.name == StName::St ? "st" : "sust")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.space))
            .types(i.types)
            .s;
    }
    std::string operator()(const Atom& i) const {
        return start(atomName(i.name))
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.space))
            .q(nameOf(kAtomOps, i.op))
            .q(i.noftz, "noftz")
            .q(i.cacheHint, "L2::cache_hint")
            .q(i.vec != 1, "v" + std::to_string(i.vec))
            .q(nameOf(kHalfTypes, i.half))
            .types(i.types)
            .s;
    }
    std::string operator()(const Fence& i) const {
        if (i.mbarrierInit) return "fence.mbarrier_init.release.cluster";
        return start("fence")
            .q(semName(i.sem))
            .q(nameOf(kSyncRestricts, i.syncRestrict))
            .q(scopeName(i.scope))
            .s;
    }
    std::string operator()(const Membar& i) const {
        return start("membar").q(membarName(i.scope)).s;
    }
    std::string operator()(const ProxyFence& i) const {
        if (i.readOnly)
            return start("fence.proxy.async::generic")
                .q(semName(i.sem))
                .q("sync_restrict::shared::cluster::read")
                .q(scopeName(i.scope))
                .s;
        if (i.syncRestrict != StateSpace::None)
            return start("fence.proxy.async::generic")
                .q(semName(i.sem))
                .q(nameOf(kSyncRestricts, i.syncRestrict))
                .q(scopeName(i.scope))
                .s;
        const bool fabric = i.kind == ProxyKind::GenericFabric ||
                            i.kind == ProxyKind::FabricGeneric || i.kind == ProxyKind::FabricFabric;
        return start(i.membar ? "membar.proxy" : "fence.proxy")
            .q(nameOf(kProxies, i.kind))
            .q(fabric, "alias")
            .q(nameOf(kSpaces, i.space))
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .s;
    }
    std::string operator()(const TensormapReplace& i) const {
        return start("tensormap.replace.tile")
            .q(i.field)
            .q(nameOf(kSpaces, i.space))
            .q("b1024")
            .types(i.types)
            .s;
    }
    std::string operator()(const TensormapCopy& i) const {
        return start("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release")
            .q(scopeName(i.scope))
            .q("sync.aligned")
            .s;
    }
    std::string operator()(const Multimem& i) const {
        const bool async = i.kind == MultimemKind::StAsync || i.kind == MultimemKind::RedAsync;
        const bool reduces = i.kind != MultimemKind::St && i.kind != MultimemKind::StAsync;
        const char* name = i.kind == MultimemKind::LdReduce ? "multimem.ld_reduce"
                           : reduces                        ? "multimem.red"
                                                            : "multimem.st";
        return start(name)
            .q(async, "async")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.space))
            .q(reduces ? nameOf(kAtomOps, i.op) : "")
            .q(i.accF32, "acc::f32")
            .q(i.accF16, "acc::f16")
            .q(i.vec != 1, "v" + std::to_string(i.vec))
            .q(nameOf(kHalfTypes, i.half))
            .q(nameOf(kFp8Types, i.fp8))
            .types(i.types)
            .s;
    }
    std::string operator()(const RedAsync& i) const {
        return start("red.async")
            .q(i.mmio, "mmio")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.space))
            .q(i.mbarrierWritten, "mbarrier::complete_tx::bytes")
            .q(nameOf(kAtomOps, i.op))
            .types(i.types)
            .s;
    }
    std::string operator()(const Matrix& i) const {
        return start(i.store ? "stmatrix" : "ldmatrix")
            .q("sync.aligned")
            .q(nameOf(kMatrixShapes, i.shape))
            .q("x" + std::to_string(i.num))
            .q(i.trans, "trans")
            .q(nameOf(kSpaces, i.space))
            .q(nameOf(kMatrixTypes, i.type))
            .s;
    }
    std::string operator()(const Barrier& i) const {
        if (i.cluster)
            return start("barrier.cluster")
                .q(i.arrive ? "arrive" : "wait")
                .q(i.arrive && i.sem == Sem::Relaxed, "relaxed")
                .q(i.aligned, "aligned")
                .s;
        if (i.red)
            return start(i.barrierSpelling ? "barrier" : "bar")
                .q(i.cta, "cta")
                .q("red")
                .q(nameOf(kBarrierRedOps, i.redOp))
                .q(i.aligned, "aligned")
                .q(i.redOp == BarrierRedOp::Popc ? "u32" : "pred")
                .s;
        return start(i.barrierSpelling ? "barrier" : "bar")
            .q(i.cta, "cta")
            .q(i.arrive ? "arrive" : "sync")
            .q(i.aligned, "aligned")
            .s;
    }
    std::string operator()(const Arith& i) const {
        return start(arithName(i.op)).q(i.lo, "lo").types(i.types).s;
    }
    std::string operator()(const MbarrierInit& i) const {
        return start(i.inval ? "mbarrier.inval" : "mbarrier.init")
            .q(i.layout >= 0 ? "layout::v" + std::to_string(i.layout) : "")
            .mb(i.mb)
            .s;
    }
    std::string operator()(const MbarrierCheckLayout& i) const {
        return start("mbarrier.check_layout").q("layout::v" + std::to_string(i.layout)).mb(i.mb).s;
    }
    std::string operator()(const ClcTryCancel& i) const {
        return start("clusterlaunchcontrol.try_cancel.async")
            .q(i.sharedCta, "shared::cta")
            .q("mbarrier::complete_tx::bytes")
            .q(i.multicast, "multicast::cluster::all")
            .q("b128")
            .s;
    }
    std::string operator()(const MbarrierPendingCount& i) const {
        return start("mbarrier.pending_count").q(i.layoutV0, "layout::v0").q("b64").s;
    }
    std::string operator()(const BulkPrefetch& i) const {
        return start(i.dims > 0 ? "cp.async.bulk.prefetch.tensor" : "cp.async.bulk.prefetch")
            .q(i.dims > 0 ? std::to_string(i.dims) + "d" : "")
            .q("L2.global")
            .q(i.loadMode)
            .q(i.cacheHint, "L2::cache_hint")
            .q(i.evictLast, "L2::evict_last")
            .q(i.overrideAddress, "override::global_address")
            .s;
    }
    std::string operator()(const MbarrierArrive& i) const {
        return start(i.drop ? "mbarrier.arrive_drop" : "mbarrier.arrive")
            .q(i.expectTx, "expect_tx")
            .q(i.noComplete, "noComplete")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .mb(i.mb, i.multicast ? "multicast::cluster::32b" : "")
            .s;
    }
    std::string operator()(const MbarrierTx& i) const {
        return start(i.complete ? "mbarrier.complete_tx" : "mbarrier.expect_tx")
            .q(i.relaxed, "relaxed")
            .q(scopeName(i.scope))
            .mb(i.mb, i.multicast ? "multicast::cluster::32b" : "")
            .s;
    }
    std::string operator()(const MbarrierWait& i) const {
        return start(i.tryWait ? "mbarrier.try_wait" : "mbarrier.test_wait")
            .q(i.parity, "parity")
            .q(i.phasePrimary, "phase_type::primary")
            .q(i.phaseConditional, "phase_type::conditional")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .mb(i.mb)
            .s;
    }
    std::string operator()(const CpAsyncArrive& i) const {
        return start("cp.async.mbarrier.arrive").q(i.noinc, "noinc").mb(i.mb).s;
    }
    std::string operator()(const CpAsync& i) const {
        return start("cp.async")
            .q(i.cg ? "cg" : "ca")
            .q(nameOf(kSpaces, i.dst))
            .q("global")
            .q(i.cacheHint, "L2::cache_hint")
            .q(i.prefetchSize)
            .s;
    }
    std::string operator()(const BulkCopy& i) const {
        if (i.reduce && i.dims > 0)
            return start("cp.reduce.async.bulk.tensor")
                .q(std::to_string(i.dims) + "d")
                .q(nameOf(kSpaces, i.dst))
                .q(nameOf(kSpaces, i.src))
                .q(nameOf(kAtomOps, *i.reduce))
                .q(i.tile, "tile")
                .q("bulk_group")
                .q(i.cacheHint, "L2::cache_hint")
                .s;
        if (i.reduce)
            return start(i.multimem ? "multimem.cp.reduce.async.bulk" : "cp.reduce.async.bulk")
                .q(semName(i.sem))
                .q(scopeName(i.scope))
                .q(nameOf(kSpaces, i.dst))
                .q(nameOf(kSpaces, i.src))
                .q(i.viaMbarrier ? "mbarrier::complete_tx::bytes" : "bulk_group")
                .q(i.cacheHint, "L2::cache_hint")
                .q(nameOf(kAtomOps, *i.reduce))
                .q(i.noftz, "noftz")
                .q(nameOf(kHalfTypes, i.half))
                .types(i.types)
                .s;
        return start(i.dims > 0   ? "cp.async.bulk.tensor"
                     : i.multimem ? "multimem.cp.async.bulk"
                                  : "cp.async.bulk")
            .q(i.dims > 0 ? std::to_string(i.dims) + "d" : "")
            .q(semName(i.sem))
            .q(scopeName(i.scope))
            .q(nameOf(kSpaces, i.dst))
            .q(nameOf(kSpaces, i.src))
            .q(i.tile, "tile")
            .q(i.loadMode)
            .q(i.viaMbarrier ? "mbarrier::complete_tx::bytes" : "bulk_group")
            .q(i.multicast, i.multicastBits == 16   ? "multicast::cluster::16b"
                            : i.multicastBits == 32 ? "multicast::cluster::32b"
                                                    : "multicast::cluster")
            .q(i.ctaGroup > 0 ? "cta_group::" + std::to_string(i.ctaGroup) : "")
            .q(i.cacheHint, "L2::cache_hint")
            .q(i.cpMask, "cp_mask")
            .q(i.ignoreOob, "ignore_oob")
            .q(i.report == ReportMechanism::Disabled ? "" : nameOf(kReportMechanisms, i.report))
            .types(i.types)
            .s;
    }
    std::string operator()(const BulkCommit& i) const {
        return i.nonBulk ? "cp.async.commit_group" : "cp.async.bulk.commit_group";
    }
    std::string operator()(const BulkWait& i) const {
        if (i.nonBulk) return i.all ? "cp.async.wait_all" : "cp.async.wait_group";
        return start("cp.async.bulk.wait_group").q(i.read, "read").s;
    }
    std::string operator()(const Tcgen05Alloc& i) const {
        return start(i.dealloc ? "tcgen05.dealloc" : "tcgen05.alloc")
            .q(i.exclusive, "exclusive")
            .group(i.ctaGroup)
            .q("sync.aligned")
            .q(i.sharedCta, "shared::cta")
            .q("b32")
            .s;
    }
    std::string operator()(const Tcgen05Relinquish& i) const {
        return start("tcgen05.relinquish_alloc_permit").group(i.ctaGroup).q("sync.aligned").s;
    }
    std::string operator()(const Tcgen05Mma& i) const {
        return start("tcgen05.mma")
            .q(i.ws, "ws")
            .q(i.sp, "sp")
            .group(i.ctaGroup)
            .q("kind::" + i.kind)
            .q(i.blockScale, "block_scale")
            .q(i.lutB, "decompress::lut::b")
            .q(!i.scaleVec.empty(), i.scaleVec)
            .q(i.ashift, "ashift")
            .q(i.collectorA.has_value(), collector(i.collectorA))
            .q(i.collectorB.has_value(), collector(i.collectorB))
            .s;
    }
    static std::string collector(const std::optional<Collector>& c) {
        if (!c) return {};
        return "collector::" + c->buffer + "::" + std::string(nameOf(kCollectorOps, c->op));
    }
    std::string operator()(const Tcgen05Cp& i) const {
        Text t = start("tcgen05.cp").group(i.ctaGroup);
        t.q(cpShape(i.shape).name).q(nameOf(kCpWarps, i.warps));
        for (const std::string& f : i.decompress)
            t.q(f);
        return t.s;
    }
    std::string operator()(const Tcgen05Shift& i) const {
        return start("tcgen05.shift").group(i.ctaGroup).q("down").s;
    }
    static Text format(std::string_view name, const LdStFormat& f) {
        return start(name)
            .q("sync.aligned")
            .q(ldStShape(f.shape).name)
            .q("x" + std::to_string(f.repeat))
            .q(nameOf(kPacks, f.pack))
            .q("b32");
    }
    std::string operator()(const Tcgen05Ld& i) const {
        if (i.spcompress)
            return start("tcgen05.ld")
                .q(i.red.has_value(), "red")
                .q("spcompress")
                .q("sync.aligned")
                .q(ldStShape(i.format.shape).name)
                .q("x" + std::to_string(i.format.repeat))
                .q(i.spcompress->max ? "max" : "min")
                .q("sp::2:4")
                .q(i.spcompress->abs, "abs")
                .q(i.spcompress->nan, "NaN")
                .q("f32.b2")
                .s;
        if (!i.red) return format("tcgen05.ld", i.format).s;
        return start("tcgen05.ld")
            .q("red")
            .q("sync.aligned")
            .q(ldStShape(i.format.shape).name)
            .q("x" + std::to_string(i.format.repeat))
            .q(i.red->max ? "max" : "min")
            .q(i.red->abs, "abs")
            .q(i.red->nan, "NaN")
            .q(i.red->type)
            .s;
    }
    std::string operator()(const Tcgen05St& i) const { return format("tcgen05.st", i.format).s; }
    std::string operator()(const Tcgen05Wait& i) const {
        return start(i.ld ? "tcgen05.wait::ld" : "tcgen05.wait::st").q("sync.aligned").s;
    }
    std::string operator()(const Tcgen05Commit& i) const {
        return start("tcgen05.commit")
            .group(i.ctaGroup)
            .q("mbarrier::arrive::one")
            .q(i.readMmaA, "sync_restrict::shared::read::mma::a")
            .q(nameOf(kSpaces, i.space))
            .q(i.multicast,
               "multicast::cluster" +
                   (i.multicastBits ? "::" + std::to_string(i.multicastBits) + "b" : std::string()))
            .q("b64")
            .s;
    }
    std::string operator()(const Tcgen05Fence& i) const {
        return i.before ? "tcgen05.fence::before_thread_sync" : "tcgen05.fence::after_thread_sync";
    }
    std::string operator()(const WgmmaFence&) const { return "wgmma.fence.sync.aligned"; }
    std::string operator()(const WgmmaMma& i) const {
        // The ISA's syntax order: .shape{.satfinite}.dtype.atype.btype{.and.popc}
        return start("wgmma.mma_async")
            .q(i.sp, "sp")
            .q("sync.aligned")
            .q("m" + std::to_string(i.m) + "n" + std::to_string(i.n) + "k" + std::to_string(i.k))
            .q(i.satfinite, "satfinite")
            .q(i.dtype)
            .q(i.atype)
            .q(i.btype)
            .q(i.andPopc, "and.popc")
            .s;
    }
    std::string operator()(const WgmmaCommit&) const { return "wgmma.commit_group.sync.aligned"; }
    std::string operator()(const WgmmaWait&) const { return "wgmma.wait_group.sync.aligned"; }
    std::string operator()(const Bra& i) const {
        return i.gotoSpelling ? "goto" : start("bra").q(i.uni, "uni").s;
    }
    std::string operator()(const CompareBranch& i) const {
        return std::string(nameOf(kBranchCmps, i.cmp));
    }
    std::string operator()(const Setp& i) const {
        return start("setp").q(nameOf(kCmpOps, i.cmp)).types({i.type}).s;
    }
    std::string operator()(const Mov& i) const { return start("mov").types({i.type}).s; }
    std::string operator()(const Elect&) const { return "elect.sync"; }
    std::string operator()(const Vote& i) const {
        return start("vote")
            .q(i.sync, "sync")
            .q(nameOf(kVoteModes, i.mode))
            .q(i.mode == VoteMode::Ballot ? "b32" : "pred")
            .s;
    }
    std::string operator()(const Match& i) const {
        return start("match").q(i.all ? "all" : "any").q("sync").types({i.type}).s;
    }
    std::string operator()(const Activemask&) const { return "activemask.b32"; }
    std::string operator()(const Redux& i) const {
        return start("redux.sync")
            .q(nameOf(kReduxOps, i.op))
            .q(i.abs, "abs")
            .q(i.nan, "NaN")
            .types({i.type})
            .s;
    }
    std::string operator()(const BarWarpSync&) const { return "bar.warp.sync"; }
    std::string operator()(const Nondet&) const { return "nondet.pred"; }
    std::string operator()(const Nanosleep&) const { return "nanosleep.u32"; }
    std::string operator()(const Setmaxnreg& i) const {
        return start("setmaxnreg").q(i.inc ? "inc" : "dec").q("sync.aligned.u32").s;
    }
    std::string operator()(const Griddepcontrol& i) const {
        return start("griddepcontrol").q(i.wait ? "wait" : "launch_dependents").s;
    }
    std::string operator()(const ClcQueryCancel& i) const {
        switch (i.query) {
        case ClcQuery::IsCanceled:
            return "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128";
        case ClcQuery::FirstCtaid:
            return "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128";
        case ClcQuery::FirstCtaidX:
            return "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128";
        case ClcQuery::FirstCtaidY:
            return "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128";
        case ClcQuery::FirstCtaidZ:
            return "clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128";
        }
        return {};
    }
    std::string operator()(const Exit& i) const { return i.ret ? "ret" : "exit"; }
};

std::string located(const litmus::Operand& o) {
    std::string s = o.name;
    if (o.cta) s += "@" + std::to_string(*o.cta);
    return s;
}

} // namespace

std::string printOpcode(const Op& op) {
    return std::visit(Printer{}, op);
}

std::string printOperand(const litmus::Operand& o) {
    using K = litmus::Operand::Kind;
    switch (o.kind) {
    case K::Name:
        return (o.negated ? "!" : "") + located(o);
    case K::Integer:
        return std::to_string(o.value);
    case K::Memory:
        if (o.indexReg)
            return "[" + located(o) + "+" +
                   (o.indexScale == 1 ? "" : std::to_string(o.indexScale) + "*") + *o.indexReg +
                   "]";
        return "[" + located(o) + (o.value ? "+" + std::to_string(o.value) : "") + "]";
    case K::Vector: {
        std::string s = "{";
        for (std::size_t i = 0; i < o.elements.size(); ++i)
            s += (i ? ", " : "") + printOperand(o.elements[i]);
        return s + "}";
    }
    case K::Sink:
        return "_";
    }
    return {};
}

void writeBack(const Insn& i, litmus::Instruction& inst) {
    inst.opcode = printOpcode(i.op);
    inst.operands = i.operands;
    inst.parts.clear();
    std::size_t start = 0;
    for (std::size_t dot; (dot = inst.opcode.find('.', start)) != std::string::npos;
         start = dot + 1)
        inst.parts.push_back(inst.opcode.substr(start, dot - start));
    inst.parts.push_back(inst.opcode.substr(start));
}

std::string print(const Insn& insn) {
    std::string s = printOpcode(insn.op);
    for (std::size_t i = 0; i < insn.operands.size(); ++i)
        s += (i ? ", " : " ") + printOperand(insn.operands[i]);
    return s;
}

} // namespace ptxmc::ptx
