// Decoding of mbarrier instructions and asynchronous copies (cp{.reduce}.async.bulk.*, cp.async.*).
#include "ptx/DecodeDetail.hpp"

#include <algorithm>

namespace ptxmc::ptx::detail {

namespace {

/** The state space and .b64 every mbarrier instruction may carry. */
MbarrierOperand takeMbOperand(Decoder& d) {
    MbarrierOperand mb;
    if (auto s = d.q.takeOneOf({"shared", "shared::cta", "shared::cluster"}))
        mb.space = *valueOf(kSpaces, *s);
    mb.b64 = d.q.take("b64");
    if (!mb.b64 && d.q.takePrefixed("b")) d.fail("mbarrier operations use .b64");
    return mb;
}

/**
 * `.multicast::cluster::32b` (PTX ISA 9.4) on mbarrier.arrive{.expect_tx}, arrive_drop,
 * expect_tx and complete_tx: the operation "is multicast to the same CTA-relative offset as addr
 * in the shared memory of each target CTA" of the 32-bit ctaMask. The mbarrier syntax has only
 * the ::32b spelling (cp.async.bulk and tcgen05.commit also have ::16b and the plain one).
 */
bool takeMulticast(Decoder& d, Sec sec, const std::string& name) {
    auto m = d.q.takePrefixed("multicast::cluster");
    if (!m) return false;
    if (*m != "::32b")
        d.fail(name + ".multicast::cluster" + *m + " is not a form of the 9.4 text: the mbarrier " +
               "multicast is .multicast::cluster::32b (" + cite(sec) + ")");
    return true;
}

/** The multicast forms name the mbarrier through .shared::cluster (or generic addressing). */
void checkMulticastSpace(Decoder& d, const MbarrierOperand& mb, Sec sec, const std::string& name) {
    if (mb.space == StateSpace::Shared || mb.space == StateSpace::SharedCta)
        d.fail(name + ".multicast::cluster::32b addresses the mbarrier as .shared::cluster (" +
               cite(sec) + ")");
}

Op decodeArrive(Decoder& d, bool drop) {
    MbarrierArrive a;
    a.drop = drop;
    a.expectTx = d.q.take("expect_tx");
    a.noComplete = d.q.take("noComplete");
    if (auto s = d.q.takeOneOf({"release", "relaxed"}))
        a.sem = *s == "release" ? Sem::Release : Sem::Relaxed;
    a.scope = d.takeScope({Scope::Cta, Scope::Cluster});
    a.multicast = takeMulticast(d, drop ? Sec::MbarrierArriveDrop : Sec::MbarrierArrive,
                                drop ? "mbarrier.arrive_drop" : "mbarrier.arrive");
    a.mb = takeMbOperand(d);
    d.q.finish();
    if (a.multicast) {
        checkMulticastSpace(d, a.mb, drop ? Sec::MbarrierArriveDrop : Sec::MbarrierArrive,
                            drop ? "mbarrier.arrive_drop" : "mbarrier.arrive");
        // the .noComplete forms have no .multicast in the 9.4 syntax ({MbarrierArrive})
        if (a.noComplete)
            d.fail(std::string(drop ? "mbarrier.arrive_drop" : "mbarrier.arrive") +
                   ".noComplete has no .multicast::cluster::32b form (" +
                   cite(drop ? Sec::MbarrierArriveDrop : Sec::MbarrierArrive) + ")");
    }
    return a;
}

Op decodeTx(Decoder& d, bool complete) {
    MbarrierTx t;
    t.complete = complete;
    t.relaxed = d.q.take("relaxed");
    t.scope = d.takeScope({Scope::Cta, Scope::Cluster});
    const Sec sec = complete ? Sec::MbarrierCompleteTx : Sec::MbarrierExpectTx;
    const char* name = complete ? "mbarrier.complete_tx" : "mbarrier.expect_tx";
    t.multicast = takeMulticast(d, sec, name);
    t.mb = takeMbOperand(d);
    d.q.finish();
    if (t.multicast) checkMulticastSpace(d, t.mb, sec, name);
    return t;
}

Op decodeWait(Decoder& d, bool tryWait) {
    MbarrierWait w;
    w.tryWait = tryWait;
    w.parity = d.q.take("parity");
    // "The qualifier .phase_type::* specifies the exact phase to test ... unspecified: checks
    // completion of the primary phase"; ".phase_type::conditional requires .parity qualifier and
    // checks for completion of the conditional phase ... For .layout::v0, the primary and
    // conditional phase complete in unison" ({MbarrierTestWaitTryWait}). The conditional phase
    // lags only where a report-on operation (a copy's .report_mechanism, a fabric operation)
    // made the payload report non-zero; ptxmc models none, so both phases are one.
    w.phasePrimary = d.q.take("phase_type::primary");
    w.phaseConditional = d.q.take("phase_type::conditional");
    if (w.phasePrimary && w.phaseConditional) d.fail("one .phase_type::* qualifier at most");
    if (auto s = d.q.takeOneOf({"acquire", "relaxed"}))
        w.sem = *s == "acquire" ? Sem::Acquire : Sem::Relaxed;
    w.scope = d.takeScope({Scope::Cta, Scope::Cluster});
    w.mb = takeMbOperand(d);
    d.q.finish();
    if (w.phaseConditional && !w.parity)
        d.fail(".phase_type::conditional requires .parity (" + cite(Sec::MbarrierTestWaitTryWait) +
               ")");
    return w;
}

/** Operand spaces: the first space qualifier is the destination, the second the source. */
void takeDstSrc(Decoder& d, BulkCopy& c, const char* instruction) {
    std::vector<StateSpace> spaces;
    while (auto s = d.takeRow(kSpaces))
        spaces.push_back(*s);
    if (spaces.size() != 2) d.fail(std::string(instruction) + " needs .dst and .src state spaces");
    c.dst = spaces[0];
    c.src = spaces[1];
}

/** cp{.reduce}.async.bulk{.weak | .relaxed.scope} (9.3). */
void takeCopyOrdering(Decoder& d, BulkCopy& c) {
    if (auto s = d.q.takeOneOf({"weak", "relaxed"}))
        c.sem = *s == "weak" ? Sem::Weak : Sem::Relaxed;
    c.scope = d.takeScope({Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys});
}

/** The .sem/.scope rules of the 9.4 syntax tables ({CpAsyncBulk}, {CpReduceAsyncBulk}). */
void checkCopyOrdering(Decoder& d, const BulkCopy& c) {
    std::string what = c.reduce ? "cp.reduce.async.bulk" : "cp.async.bulk";
    std::string where = " (" + cite(c.reduce ? Sec::CpReduceAsyncBulk : Sec::CpAsyncBulk) + ")";
    if (c.sem == Sem::Weak && c.scope != Scope::None) d.fail(what + ".weak takes no scope" + where);
    if (c.sem == Sem::Relaxed && c.scope == Scope::None)
        d.fail(what + ".relaxed needs a scope" + where);
    if (c.sem == Sem::None && c.scope != Scope::None)
        d.fail(what + ": a scope goes with .relaxed" + where);
    bool toPeerShared = c.src == StateSpace::SharedCta && c.dst == StateSpace::SharedCluster;
    if (c.sem == Sem::Relaxed && toPeerShared && c.scope != Scope::Cta && c.scope != Scope::Cluster)
        d.fail(what + " from .shared::cta to .shared::cluster is .relaxed.cta or .relaxed.cluster" +
               where);
    if (c.reduce) {
        if (c.sem == Sem::Weak) d.fail("cp.reduce.async.bulk's .sem is .relaxed" + where);
        return;
    }
    if (c.sem == Sem::Relaxed && (c.types.size() != 1 || c.types[0] != Type{'b', 128}))
        d.fail("cp.async.bulk.relaxed needs .b128, its element-wise atomic size" + where);
}

/**
 * The .load_mode of a tensor copy ({CpAsyncBulkTensor}): one of them; .tile, .tile::gather4,
 * .im2col, .im2col::w, .im2col::w::128 load from global memory, .tile, .tile::scatter4,
 * .im2col_no_offs, .im2col_no_offs::w store to it. "In .tile::gather4 mode, four rows in
 * 2-dimensional source tensor are combined to form a single 2-dimensional destination tensor"
 * (.tile::scatter4 the reverse); "In .im2col, .im2col::*, .im2col_no_offs and .im2col_no_offs::w
 * modes ... the tensor has to be at least 3-dimensional".
 */
void checkLoadMode(Decoder& d, const BulkCopy& c) {
    const std::string where = " (" + cite(Sec::CpAsyncBulkTensor) + ")";
    if (c.loadMode.empty()) return;
    if (c.tile) d.fail("cp.async.bulk.tensor takes one .load_mode" + where);
    const bool store = c.dst == StateSpace::Global;
    const bool storeMode =
        c.loadMode == "tile::scatter4" || c.loadMode.rfind("im2col_no_offs", 0) == 0;
    if (store != storeMode)
        d.fail("cp.async.bulk.tensor ." + c.loadMode + " is a " +
               (storeMode ? "shared::cta-to-global" : "global-to-shared") + " mode" + where);
    if (c.loadMode.rfind("tile::", 0) == 0 && c.dims != 2)
        d.fail("." + c.loadMode + " moves four rows of a 2-dimensional tensor: .2d" + where);
    if (c.loadMode.rfind("im2col", 0) == 0 && c.dims < 3)
        d.fail("in ." + c.loadMode + " mode \"the tensor has to be at least 3-dimensional\"" +
               where);
}

/**
 * .ignore_oob ({CpAsyncBulk}): "up to 15 bytes at the beginning or ending of [srcMem ..
 * srcMem+size) may be out-of-bounds of a global memory allocation, and the value of the
 * corresponding bytes in destination shared memory [dstMem .. dstMem+size) is indeterminate";
 * "The qualifier .ignore_oob is only available for the global to .shared::cta copy direction".
 * An immediate ignoreBytesLeft or ignoreBytesRight is checked here; what the ignored bytes
 * leave is the lowering's (lowerCopy).
 */
void checkIgnoreOob(Decoder& d, const BulkCopy& c) {
    const std::string where = " (" + cite(Sec::CpAsyncBulk) + ")";
    if (c.dst != StateSpace::SharedCta || c.src != StateSpace::Global || !c.viaMbarrier)
        d.fail("\"The qualifier .ignore_oob is only available for the global to .shared::cta copy "
               "direction\"" +
               where);
    for (std::size_t i : {std::size_t{3}, std::size_t{4}}) {
        if (i >= d.inst.operands.size()) break;
        const litmus::Operand& n = d.inst.operands[i];
        if (n.kind != litmus::Operand::Kind::Integer) continue;
        if (n.value < 0 || n.value > 15)
            throw InputError(n.loc, "\"The only valid values for ignoreBytesLeft and "
                                    "ignoreBytesRight are [0..15]\"" +
                                        where);
    }
}

/** The .report_mechanism qualifier ({AsyncCopyReportMechanisms}); Disabled when unwritten. */
ReportMechanism takeReportMechanism(Decoder& d) {
    const std::optional<ReportMechanism> out = d.takeRow(kReportMechanisms);
    if (out && d.takeRow(kReportMechanisms))
        d.fail("one .report_mechanism at most (" + cite(Sec::AsyncCopyReportMechanisms) + ")");
    return out.value_or(ReportMechanism::Disabled);
}

/**
 * "Asynchronous copy operations with copy-direction from .global to .shared::cta or
 * .shared::cluster support reporting data validity through an mbarrier object"
 * ({AsyncCopyReportMechanisms}); "In presence of .ignore_oob, the qualifier .report_mechanism, if
 * specified, must be set to .mbarrier::report::disabled" ({CpAsyncBulk}).
 */
void checkReportMechanism(Decoder& d, const BulkCopy& c) {
    if (c.report == ReportMechanism::Disabled) return;
    const std::string where = " (" + cite(Sec::AsyncCopyReportMechanisms) + ")";
    if (c.src != StateSpace::Global || c.dst == StateSpace::Global || !c.viaMbarrier || c.reduce)
        d.fail("a .report_mechanism goes with copies from .global to .shared::cta or "
               ".shared::cluster that complete on an mbarrier" +
               where);
    if (c.ignoreOob)
        d.fail("\"In presence of .ignore_oob, the qualifier .report_mechanism, if specified, must "
               "be set to .mbarrier::report::disabled\" (" +
               cite(Sec::CpAsyncBulk) + ")");
}

Op decodeCopy(Decoder& d) {
    BulkCopy c;
    if (d.q.take("tensor")) {
        auto dim = d.q.takeOneOf({"1d", "2d", "3d", "4d", "5d"});
        if (!dim) d.fail("cp.async.bulk.tensor needs its dimension (.1d ... .5d)");
        c.dims = (*dim)[0] - '0';
    }
    takeDstSrc(d, c, "cp.async.bulk");
    if (c.dims == 0) takeCopyOrdering(d, c);
    if (c.dims > 0) {
        c.tile = d.q.take("tile");
        if (auto m = d.q.takeOneOf({"tile::gather4", "tile::scatter4", "im2col", "im2col::w",
                                    "im2col::w::128", "im2col_no_offs", "im2col_no_offs::w"}))
            c.loadMode = *m;
        if (auto g = d.q.takeOneOf({"cta_group::1", "cta_group::2"})) c.ctaGroup = (*g)[11] - '0';
    }
    c.viaMbarrier = d.q.take("mbarrier::complete_tx::bytes");
    bool viaGroup = d.q.take("bulk_group");
    if (auto m = d.q.takeOneOf(
            {"multicast::cluster", "multicast::cluster::16b", "multicast::cluster::32b"})) {
        c.multicast = true;
        if (*m != "multicast::cluster") c.multicastBits = *m == "multicast::cluster::16b" ? 16 : 32;
    }
    // .L2::cache_hint: "a hint to the cache subsystem and may not always be respected"
    // ({CpAsyncBulk}): a trailing cache_policy operand, no memory-model effect
    c.cacheHint = d.q.take("L2::cache_hint");
    c.report = takeReportMechanism(d);
    c.ignoreOob = c.dims == 0 && d.q.take("ignore_oob");
    c.cpMask = c.dims == 0 && d.q.take("cp_mask");
    c.types = d.takeTypes();
    if (d.q.take("b128")) c.types.push_back(Type{'b', 128}); // .relaxed's element size (9.3)
    d.q.finish();
    checkCopyOrdering(d, c);
    if (c.ignoreOob) checkIgnoreOob(d, c);
    if (c.viaMbarrier == viaGroup)
        d.fail("cp.async.bulk needs exactly one completion mechanism: "
               ".mbarrier::complete_tx::bytes or .bulk_group");
    if (c.viaMbarrier && c.dst == StateSpace::Global)
        d.fail(".mbarrier::complete_tx::bytes needs a shared-memory destination");
    if (c.multicast && !c.viaMbarrier) d.fail(".multicast::cluster needs an mbarrier");
    // "cp.async.bulk.dst.src.completion_mechanism{.level::cache_hint}{.cp_mask} [dstMem],
    // [srcMem], size{, cache-policy}{, byteMask}" with ".dst = { .global }", ".src = {
    // .shared::cta }", ".completion_mechanism = { .bulk_group }" ({CpAsyncBulk})
    if (c.cpMask && (c.dst != StateSpace::Global || c.src != StateSpace::SharedCta || !viaGroup))
        d.fail(".cp_mask goes with cp.async.bulk.global.shared::cta.bulk_group (" +
               cite(Sec::CpAsyncBulk) + ")");
    if (c.dims > 0) checkLoadMode(d, c);
    checkReportMechanism(d, c);
    return c;
}

} // namespace

Op decodeMbarrier(Decoder& d) {
    const auto& p = d.inst.parts;
    if (p.size() < 2) d.fail("incomplete mbarrier instruction");
    const std::string& op = p[1];
    if (op == "init" || op == "inval") {
        MbarrierInit i;
        i.inval = op == "inval";
        // mbarrier.init{.layout}{.shared{::cta}}.b64 (9.3, {MbarrierInit}); .layout = {.layout::v0,
        // .layout::v1}
        if (!i.inval)
            if (auto l = d.q.takeOneOf({"layout::v0", "layout::v1"})) i.layout = (*l)[9] - '0';
        i.mb = takeMbOperand(d);
        d.q.finish();
        if (i.mb.space == StateSpace::SharedCluster)
            d.fail("mbarrier." + op + " takes an mbarrier in .shared{::cta} (" +
                   cite(Sec::MbarrierInit) + ")");
        return i;
    }
    if (op == "pending_count") {
        // mbarrier.pending_count{.layout::v0}.b64 count, state ({MbarrierPendingCount})
        MbarrierPendingCount c;
        c.layoutV0 = d.q.take("layout::v0");
        if (!d.q.take("b64"))
            d.fail("mbarrier.pending_count needs .b64 (" + cite(Sec::MbarrierPendingCount) + ")");
        d.q.finish();
        return c;
    }
    if (op == "check_layout") {
        // mbarrier.check_layout.layout{.ss}.b64 p, [addr]; .layout = {.layout::v0, .layout::v1},
        // .ss = {.shared::cta} ({MbarrierCheckLayout})
        MbarrierCheckLayout c;
        auto l = d.q.takeOneOf({"layout::v0", "layout::v1"});
        if (!l)
            d.fail(
                "mbarrier.check_layout needs the layout it checks, .layout::v0 or .layout::v1 (" +
                cite(Sec::MbarrierCheckLayout) + ")");
        c.layout = (*l)[9] - '0';
        c.mb = takeMbOperand(d);
        d.q.finish();
        if (c.mb.space != StateSpace::None && c.mb.space != StateSpace::SharedCta)
            d.fail("mbarrier.check_layout's state space is .shared::cta (" +
                   cite(Sec::MbarrierCheckLayout) + ")");
        return c;
    }
    if (op == "arrive" || op == "arrive_drop") return decodeArrive(d, op == "arrive_drop");
    if (op == "expect_tx") return decodeTx(d, false);
    if (op == "complete_tx") return decodeTx(d, true);
    if (op == "test_wait" || op == "try_wait") return decodeWait(d, op == "try_wait");
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

namespace {

/** The .redOp values of {CpReduceAsyncBulk} and {CpReduceAsyncBulkTensor} (the same eight). */
std::optional<AtomOp> takeReduceOp(Decoder& d, const std::string& what) {
    auto op = d.takeRow(kAtomOps);
    bool supported = op && (*op == AtomOp::Add || *op == AtomOp::And || *op == AtomOp::Or ||
                            *op == AtomOp::Xor || *op == AtomOp::Min || *op == AtomOp::Max ||
                            *op == AtomOp::Inc || *op == AtomOp::Dec);
    if (!supported) d.fail(what + " needs .redOp .add, .inc, .dec, .and, .or, .xor, .min or .max");
    return op;
}

/**
 * cp.reduce.async.bulk.tensor.dim.dst.src.redOp{.load_mode}.completion_mechanism
 * {.level::cache_hint} [tensorMap, tensorCoords], [srcMem]{, cache_policy}
 * ({CpReduceAsyncBulkTensor}): .dst = .global, .src = .shared::cta, .completion_mechanism =
 * .bulk_group. No .type: the element type is the tensor map's. The .im2col_no_offs load modes and
 * the 9.4 .override::* qualifiers (operands ptxmc does not model) stay undecoded.
 */
Op decodeReduceTensor(Decoder& d) {
    const std::string what = "cp.reduce.async.bulk.tensor";
    const std::string where = " (" + cite(Sec::CpReduceAsyncBulkTensor) + ")";
    BulkCopy c;
    auto dim = d.q.takeOneOf({"1d", "2d", "3d", "4d", "5d"});
    if (!dim) d.fail(what + " needs its dimension (.1d ... .5d)");
    c.dims = (*dim)[0] - '0';
    takeDstSrc(d, c, what.c_str());
    if (c.dst != StateSpace::Global || c.src != StateSpace::SharedCta)
        d.fail(what + " is .global.shared::cta" + where);
    c.tile = d.q.take("tile");
    if (d.q.takeIf([](const std::string& q) { return q.rfind("im2col", 0) == 0; }))
        d.fail(what + "'s im2col_no_offs load modes are not supported; use .tile");
    if (d.q.takeIf([](const std::string& q) { return q.rfind("override::", 0) == 0; }))
        d.fail(what + ": the .override::* qualifiers (9.4) are not supported");
    if (!d.q.take("bulk_group")) d.fail(what + "'s completion mechanism is .bulk_group" + where);
    c.cacheHint = d.q.take("L2::cache_hint"); // a performance hint ({CpReduceAsyncBulkTensor})
    c.reduce = takeReduceOp(d, what);
    d.q.finish();
    return c;
}

/**
 * cp.reduce.async.bulk on .f16/.bf16 elements ({CpReduceAsyncBulk}): to .global only, .add
 * ("The cp.reduce.async.bulk.add.f16 and cp.reduce.async.bulk.add.bf16 operations require
 * .noftz qualifier"), .min and .max (the table of valid combinations); no packed type.
 */
void checkHalfBulkReduce(Decoder& d, const BulkCopy& c, const std::string& where) {
    if (c.half == HalfType::F16x2 || c.half == HalfType::Bf16x2 || !c.types.empty())
        d.fail("cp.reduce.async.bulk's 16-bit float elements are .f16 or .bf16" + where);
    if (c.dst != StateSpace::Global)
        d.fail("cp.reduce.async.bulk reduces .f16/.bf16 elements into .global only (the table of "
               "valid combinations)" +
               where);
    const AtomOp op = *c.reduce;
    if (op != AtomOp::Add && op != AtomOp::Min && op != AtomOp::Max)
        d.fail("cp.reduce.async.bulk on ." + std::string(nameOf(kHalfTypes, c.half)) +
               " elements is .add.noftz, .min or .max" + where);
    if (op == AtomOp::Add && !c.noftz)
        d.fail("\"cp.reduce.async.bulk.add.f16 and cp.reduce.async.bulk.add.bf16 operations "
               "require .noftz qualifier\"" +
               where);
    if (op != AtomOp::Add && c.noftz) d.fail(".noftz goes with .add" + where);
}

/** cp.reduce.async.bulk.dst.src.mechanism.redOp.type (PTX ISA {CpReduceAsyncBulk}). */
Op decodeReduce(Decoder& d) {
    if (d.q.take("tensor")) return decodeReduceTensor(d);
    BulkCopy c;
    takeDstSrc(d, c, "cp.reduce.async.bulk");
    takeCopyOrdering(d, c);
    c.viaMbarrier = d.q.take("mbarrier::complete_tx::bytes");
    bool viaGroup = d.q.take("bulk_group");
    if (c.viaMbarrier == viaGroup)
        d.fail("cp.reduce.async.bulk needs exactly one completion mechanism: "
               ".mbarrier::complete_tx::bytes or .bulk_group");
    // The two forms (PTX ISA {CpReduceAsyncBulk}): .shared::cluster.shared::cta with an mbarrier,
    // .global.shared::cta with a bulk async-group.
    bool toCluster = c.dst == StateSpace::SharedCluster && c.viaMbarrier;
    bool toGlobal = c.dst == StateSpace::Global && viaGroup;
    if (c.src != StateSpace::SharedCta || (!toCluster && !toGlobal))
        d.fail("cp.reduce.async.bulk is .shared::cluster.shared::cta.mbarrier::complete_tx::bytes "
               "or .global.shared::cta.bulk_group");
    c.cacheHint = d.q.take("L2::cache_hint"); // a performance hint ({CpReduceAsyncBulk})
    c.reduce = takeReduceOp(d, "cp.reduce.async.bulk");
    c.noftz = d.q.take("noftz");
    c.half = d.takeRow(kHalfTypes).value_or(HalfType::None);
    c.types = d.takeTypes();
    d.q.finish();
    const std::string where = " (" + cite(Sec::CpReduceAsyncBulk) + ")";
    if (c.half != HalfType::None) {
        checkHalfBulkReduce(d, c, where);
        checkCopyOrdering(d, c);
        return c;
    }
    const bool f32 = c.types.size() == 1 && c.types[0] == Type{'f', 32};
    if (c.types.size() == 1 && c.types[0] == Type{'f', 64})
        d.fail("cp.reduce.async.bulk on .f64 elements: ptxmc computes no binary64 arithmetic" +
               where);
    if (c.types.size() != 1 || (c.types[0].bits != 32 && c.types[0].bits != 64) ||
        (c.types[0].kind == 'f' && !f32))
        d.fail("cp.reduce.async.bulk here reduces 32- and 64-bit integer elements, .f32 or "
               "16-bit floats (.f16, .bf16)");
    // binary32 elements: .add to global memory, "rounds to the nearest even"; "The default
    // behavior for cp.reduce.async.bulk.add.f32 is equivalent to specifying optional .noftz
    // qualifier which preserves input and result subnormals", so .add.f32 is .add.noftz.f32
    if (f32 && (*c.reduce != AtomOp::Add || c.dst != StateSpace::Global))
        d.fail("cp.reduce.async.bulk on .f32 elements is .add to .global (the table of valid "
               "combinations)" +
               where);
    if (c.noftz && !f32) d.fail(".noftz goes with floating-point elements" + where);
    // the table of valid combinations: the bit-size operations on .b32 (and .b64 to .global),
    // .add on .u32/.s32/.u64, .min and .max on .u32/.s32 (and .u64/.s64 to .global)
    const bool bitwise =
        *c.reduce == AtomOp::And || *c.reduce == AtomOp::Or || *c.reduce == AtomOp::Xor;
    if (!f32 && bitwise != (c.types[0].kind == 'b'))
        d.fail("cp.reduce.async.bulk ." + std::string(nameOf(kAtomOps, *c.reduce)) + " takes " +
               (bitwise ? ".b32 or .b64" : ".u32, .s32, .u64 or .s64") +
               " elements (the table of valid combinations)" + where);
    if (*c.reduce == AtomOp::Add && c.types[0] == Type{'s', 64})
        d.fail("cp.reduce.async.bulk .add takes .u64, not .s64 (the table of valid "
               "combinations)" +
               where);
    const bool toGlobalOnly = c.types[0].bits == 64 && *c.reduce != AtomOp::Add;
    if (toGlobalOnly && c.dst != StateSpace::Global)
        d.fail("cp.reduce.async.bulk ." + std::string(nameOf(kAtomOps, *c.reduce)) + " on ." +
               c.types[0].kind +
               "64 elements reduces into .global only (the table of valid "
               "combinations)" +
               where);
    // "The .inc and .dec operations return a result in the range [0..x] where x is the value at
    // the source state space"; the table of valid combinations gives them .u32 only
    if ((*c.reduce == AtomOp::Inc || *c.reduce == AtomOp::Dec) && c.types[0] != Type{'u', 32})
        d.fail("cp.reduce.async.bulk .inc/.dec reduce .u32 elements (" +
               cite(Sec::CpReduceAsyncBulk) + ")");
    checkCopyOrdering(d, c);
    return c;
}

/**
 * cp.async.bulk.prefetch.L2.global{.L2::cache_hint | .L2::evict_last} ({CpAsyncBulkPrefetch}) and
 * cp.async.bulk.prefetch.tensor.dim.L2.global{.load_mode}{.L2::cache_hint | .L2::evict_last}
 * ({CpAsyncBulkPrefetchTensor}); the 9.4 .override::* qualifiers name operands ptxmc does not
 * take.
 */
Op decodePrefetch(Decoder& d) {
    BulkPrefetch p;
    bool tensor = d.q.take("tensor");
    const Sec sec = tensor ? Sec::CpAsyncBulkPrefetchTensor : Sec::CpAsyncBulkPrefetch;
    const std::string name = tensor ? "cp.async.bulk.prefetch.tensor" : "cp.async.bulk.prefetch";
    if (tensor) {
        auto dim = d.q.takeOneOf({"1d", "2d", "3d", "4d", "5d"});
        if (!dim) d.fail(name + " needs its dimension (.1d ... .5d)");
        p.dims = (*dim)[0] - '0';
    }
    if (!d.q.take("L2") || !d.q.take("global"))
        d.fail(name + " is ." + (tensor ? "dim." : "") + "L2.global (" + cite(sec) + ")");
    if (tensor)
        if (auto m =
                d.q.takeOneOf({"tile", "tile::gather4", "im2col", "im2col::w", "im2col::w::128"}))
            p.loadMode = *m;
    p.cacheHint = d.q.take("L2::cache_hint");
    p.evictLast = d.q.take("L2::evict_last");
    if (p.cacheHint && p.evictLast)
        d.fail(name + " takes .L2::cache_hint or .L2::evict_last, not both (" + cite(sec) + ")");
    // .override::global_address (9.4): "the global memory address present in the opaque
    // tensorMap object is ignored and instead the address specified by the explicit 64-bit
    // operand gAddrToOverride is used" ({TensorBaseAddressOverride}); .override_attribute's
    // dimension and stride operands are not taken
    if (tensor) p.overrideAddress = d.q.take("override::global_address");
    if (d.q.takePrefixed("override"))
        d.fail(name + ": of the .override::* qualifiers only .override::global_address is "
                      "supported");
    d.q.finish();
    if (p.loadMode.rfind("im2col", 0) == 0 && p.dims < 3)
        d.fail(
            "\"In .im2col and .im2col::* modes, the tensor has to be at least 3-dimensional\" (" +
            cite(sec) + ")");
    return p;
}

/**
 * cp.async's optional fourth operand ({CpAsync}): "a 32-bit integer operand src-size" or "the
 * optional and non-immediate predicate argument ignore-src". PTX tells them apart by the
 * register's type, which a litmus register lacks: an immediate is src-size, a register is
 * ignore-src (the predicate form). src-size "must be less than cp-size"; which cells can keep
 * part of the copy is the lowering's to say (lowerNonBulkCopy).
 */
void takeSrcSizeOrIgnore(CpAsync& c, const litmus::Operand& cpSize, const litmus::Operand& x) {
    const std::string where = " (" + cite(Sec::CpAsync) + ")";
    if (x.kind == litmus::Operand::Kind::Name) {
        c.ignoreSrc = true;
        return;
    }
    if (x.kind != litmus::Operand::Kind::Integer)
        throw InputError(x.loc, "cp.async's src-size is an integer, ignore-src a predicate "
                                "register" +
                                    where);
    if (cpSize.kind == litmus::Operand::Kind::Integer && (x.value < 0 || x.value >= cpSize.value))
        throw InputError(x.loc, "cp.async: src-size \"must be less than cp-size\"" + where);
    c.srcSize = x.value;
}

/** cp.async.{ca,cg}.shared{::cta}.global (PTX ISA
 * #data-movement-and-conversion-instructions-cp-async). */
Op decodeNonBulkCopy(Decoder& d, bool cg) {
    CpAsync c;
    c.cg = cg;
    auto dst = d.q.takeOneOf({"shared", "shared::cta"});
    if (!dst || !d.q.take("global")) d.fail("cp.async copies .shared{::cta}.global");
    c.dst = *dst == "shared" ? StateSpace::Shared : StateSpace::SharedCta;
    // .level::cache_hint and .level::prefetch_size: "a hint to the cache subsystem", "a hint to
    // fetch additional data of the specified size into the respective cache level" ({CpAsync}):
    // no memory-model effect; the cache-policy operand follows the copy's operands
    c.cacheHint = d.q.take("L2::cache_hint");
    if (auto s = d.q.takeOneOf({"L2::64B", "L2::128B", "L2::256B"})) c.prefetchSize = *s;
    d.q.finish();
    // [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
    const std::size_t fixed = c.cacheHint ? 4 : 3;
    const auto& ops = d.inst.operands;
    if (ops.size() > fixed + 1)
        d.fail("cp.async takes [dst], [src], cp-size{, src-size or ignore-src}{, cache-policy} (" +
               cite(Sec::CpAsync) + ")");
    if (ops.size() == fixed + 1) takeSrcSizeOrIgnore(c, ops[2], ops[3]);
    return c;
}

/** cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 (PTX ISA
 * #parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive). */
Op decodeCpAsyncArrive(Decoder& d) {
    CpAsyncArrive a;
    a.noinc = d.q.take("noinc");
    a.mb = takeMbOperand(d);
    if (a.mb.space == StateSpace::SharedCluster)
        d.fail("cp.async.mbarrier.arrive takes an mbarrier in .shared::cta");
    d.q.finish();
    return a;
}

} // namespace

/**
 * multimem.cp.async.bulk{.sem}{.scope}.dst.src.completion_mechanism{.type} [dstMem], [srcMem],
 * size and multimem.cp.reduce.async.bulk{.sem.scope}.dst.src.completion_mechanism.redOp.type
 * ({MultimemCpAsyncBulk}, {MultimemCpReduceAsyncBulk}): .dst = .global, .src = .shared::cta,
 * .bulk_group; the rest as cp{.reduce}.async.bulk's, and checked as theirs. The copy: "When .sem
 * is not specified, it defaults to .weak"; ".relaxed" takes a scope and .b128, "naturally-aligned
 * strong memory operations with element-wise atomic size specified by .type". The reduction:
 * "When .sem.scope is not specified, it defaults to .relaxed.sys".
 */
Op decodeMultimemCopy(Decoder& d, bool reduce) {
    const std::string what = reduce ? "multimem.cp.reduce.async.bulk" : "multimem.cp.async.bulk";
    const std::string where =
        " (" + cite(reduce ? Sec::MultimemCpReduceAsyncBulk : Sec::MultimemCpAsyncBulk) + ")";
    const auto& parts = d.inst.parts;
    auto written = [&](const char* q) {
        return std::find(parts.begin(), parts.end(), q) != parts.end();
    };
    if (reduce && written("cp_mask"))
        d.fail("multimem.cp.reduce.async.bulk has no .cp_mask" + where);
    if (written("tensor")) d.fail("unknown instruction '" + d.inst.opcode + "'");
    Op op = reduce ? decodeReduce(d) : decodeCopy(d);
    auto& c = std::get<BulkCopy>(op);
    if (c.dst != StateSpace::Global || c.src != StateSpace::SharedCta || c.viaMbarrier ||
        c.multicast)
        d.fail(what + " is .global.shared::cta.bulk_group" + where);
    if (c.cacheHint || c.ignoreOob)
        d.fail("'" + d.inst.opcode + "' is not a form of " + what + where);
    c.multimem = true;
    return op;
}

Op decodeAsyncCopy(Decoder& d) {
    const auto& p = d.inst.parts;
    if (p[1] == "reduce") {
        if (p.size() < 4 || p[2] != "async" || p[3] != "bulk")
            d.fail("unknown instruction '" + d.inst.opcode + "'");
        return decodeReduce(d);
    }
    if (p[1] != "async" || p.size() < 3) d.fail("unknown instruction '" + d.inst.opcode + "'");
    const std::string& what = p[2];
    if (what == "bulk") {
        if (p.size() >= 4 && p[3] == "commit_group") {
            d.q.finish();
            return BulkCommit{};
        }
        if (p.size() >= 4 && p[3] == "prefetch") {
            d.q.take("prefetch");
            return decodePrefetch(d);
        }
        if (p.size() >= 4 && p[3] == "wait_group") {
            BulkWait w{d.q.take("read")};
            d.q.finish();
            return w;
        }
        return decodeCopy(d);
    }
    if (what == "mbarrier") {
        if (p.size() < 4 || p[3] != "arrive") d.fail("unknown instruction '" + d.inst.opcode + "'");
        return decodeCpAsyncArrive(d);
    }
    if (what == "commit_group") {
        d.q.finish();
        return BulkCommit{true};
    }
    if (what == "wait_group" || what == "wait_all") {
        d.q.finish();
        return BulkWait{false, true, what == "wait_all"};
    }
    if (what == "ca" || what == "cg") return decodeNonBulkCopy(d, what == "cg");
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

Op decodeClusterLaunchControl(Decoder& d) {
    const std::string& what = d.inst.parts[1];
    if (what == "try_cancel") {
        // clusterlaunchcontrol.try_cancel.async{.space}.completion_mechanism
        // {.multicast::cluster::all}.b128 [addr], [mbar]; .space = {.shared::cta}
        const std::string where = " (" + cite(Sec::ClcTryCancel) + ")";
        if (!d.q.take("async")) d.fail("clusterlaunchcontrol.try_cancel needs .async" + where);
        ClcTryCancel c;
        c.sharedCta = d.q.take("shared::cta");
        if (!d.q.take("mbarrier::complete_tx::bytes"))
            d.fail("clusterlaunchcontrol.try_cancel needs .mbarrier::complete_tx::bytes" + where);
        c.multicast = d.q.take("multicast::cluster::all");
        if (!d.q.take("b128")) d.fail("clusterlaunchcontrol.try_cancel needs .b128" + where);
        d.q.finish();
        return c;
    }
    if (what == "query_cancel") {
        // .is_canceled.pred.b128 p, h; .get_first_ctaid.v4.b32.b128 {x, y, z, _}, h;
        // .get_first_ctaid{::dimension}.b32.b128 r, h
        const std::string where = " (" + cite(Sec::ClcQueryCancel) + ")";
        ClcQueryCancel c;
        if (d.q.take("is_canceled")) {
            if (!d.q.take("pred")) d.fail("query_cancel.is_canceled needs .pred" + where);
            c.query = ClcQuery::IsCanceled;
        } else {
            static const std::array<Row<ClcQuery>, 4> kFirst = {
                {{ClcQuery::FirstCtaid, "get_first_ctaid"},
                 {ClcQuery::FirstCtaidX, "get_first_ctaid::x"},
                 {ClcQuery::FirstCtaidY, "get_first_ctaid::y"},
                 {ClcQuery::FirstCtaidZ, "get_first_ctaid::z"}}};
            auto q = d.takeRow(kFirst);
            if (!q)
                d.fail("clusterlaunchcontrol.query_cancel needs .is_canceled or .get_first_ctaid" +
                       where);
            c.query = *q;
            const bool v4 = d.q.take("v4");
            if (v4 != (c.query == ClcQuery::FirstCtaid))
                d.fail(std::string(v4 ? "only .get_first_ctaid without a dimension takes .v4"
                                      : ".get_first_ctaid without a dimension needs .v4") +
                       where);
            if (!d.q.take("b32")) d.fail("query_cancel.get_first_ctaid needs .b32" + where);
        }
        if (!d.q.take("b128")) d.fail("clusterlaunchcontrol.query_cancel needs .b128" + where);
        d.q.finish();
        return c;
    }
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

} // namespace ptxmc::ptx::detail
