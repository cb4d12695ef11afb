// Bulk asynchronous copies (cp.async.bulk) and their async-group completion instructions.
#include "lower/Lowerer.hpp"

namespace ptxmc::lower {

using ir::Value;

namespace {

/** Marks `e` as a weak async-proxy access (the copy itself is weak, PTX ISA 9.7.9.25). */
void asyncAccess(Lowerer& l, ir::Event& e, const Address& a) {
    l.access(e, a, ir::Proxy::Async);
    e.sem = ir::Sem::Weak;
    e.tags.insert("Weak");
}

void lowerCopy(Lowerer& l, Qualifiers& q) {
    // Operand spaces: the first space qualifier is the destination, the second the source.
    std::vector<std::string> spaces;
    while (auto s = q.takeOneOf({"global", "shared::cluster", "shared::cta", "shared"}))
        spaces.push_back(*s);
    if (spaces.size() != 2) l.fail(l.inst().loc, "cp.async.bulk needs .dst and .src state spaces");
    bool toShared = spaces[0] != "global";
    bool fromShared = spaces[1] != "global";
    bool viaMbarrier = q.take("mbarrier::complete_tx::bytes");
    bool viaGroup = q.take("bulk_group");
    bool multicast = q.take("multicast::cluster");
    if (q.take("tensor"))
        l.fail(l.inst().loc, "cp.async.bulk.tensor is not supported; use cp.async.bulk");
    q.takeTypes();
    q.finish();
    if (viaMbarrier == viaGroup)
        l.fail(l.inst().loc, "cp.async.bulk needs exactly one completion mechanism: "
                             ".mbarrier::complete_tx::bytes or .bulk_group");
    if (viaMbarrier && !toShared)
        l.fail(l.inst().loc, ".mbarrier::complete_tx::bytes needs a shared-memory destination");
    if (multicast && !viaMbarrier) l.fail(l.inst().loc, ".multicast::cluster needs an mbarrier");
    std::size_t n = 3 + (viaMbarrier ? 1 : 0) + (multicast ? 1 : 0);
    l.expectOperands(n);
    Address dst = l.address(l.operand(0), toShared ? ir::Space::Shared : ir::Space::Global);
    Address src = l.address(l.operand(1), fromShared ? ir::Space::Shared : ir::Space::Global);
    const auto& sizeOp = l.operand(2);
    if (sizeOp.kind != litmus::Operand::Kind::Integer || sizeOp.value <= 0 ||
        sizeOp.value % 16 != 0 || sizeOp.value >= (1 << 20))
        l.fail(sizeOp.loc, "copy size must be a positive multiple of 16 below 2^20");
    std::vector<std::pair<Address, std::optional<Address>>> targets; // (dst, mbarrier) per CTA
    std::optional<Address> mbar;
    if (viaMbarrier) mbar = l.address(l.operand(3), ir::Space::Mbarrier);
    if (multicast) {
        const auto& maskOp = l.operand(4);
        if (maskOp.kind != litmus::Operand::Kind::Integer || maskOp.value <= 0 ||
            maskOp.value > 0xffff)
            l.fail(maskOp.loc, "ctaMask must be a non-zero 16-bit integer");
        for (int rank = 0; rank < 16; ++rank) {
            if (!((maskOp.value >> rank) & 1)) continue;
            int cta = l.ctaOfRank(l.thread().cta, rank);
            auto d = cta < 0 ? std::nullopt : l.addressInCta(dst, cta);
            auto m = cta < 0 ? std::nullopt : l.addressInCta(*mbar, cta);
            if (!d || !m)
                l.fail(maskOp.loc, "ctaMask names cluster rank " + std::to_string(rank) +
                                       ", where '" + l.operand(0).name + "' or '" +
                                       l.operand(3).name + "' is not declared");
            targets.emplace_back(*d, m);
        }
    } else {
        targets.emplace_back(dst, mbar);
    }
    ir::Event& issue = l.issue({"BULK", viaMbarrier ? "BULK_MBAR" : "BULK_GROUP"});
    int issueId = issue.id;
    ir::Event& r = l.exec(issueId, "read " + l.operand(1).name, {"R"});
    asyncAccess(l, r, src);
    int readId = r.id;
    for (const auto& [d, m] : targets) {
        ir::Event& w = l.exec(
            issueId, "write " + l.program().locations[static_cast<std::size_t>(d.location)].name,
            {"W"});
        asyncAccess(l, w, d);
        w.written = Value::readOf(readId);
        if (!m) {
            // Completion of a bulk-group copy, observed by wait_group: the implicit
            // generic-async proxy fence follows it (PTX ISA 9.7.9.25.2).
            ir::Event& done = l.exec(issueId, "complete", {"BULK_DONE", "PF"});
            done.fenceProxies = {ir::Proxy::Async};
        } else {
            // complete-tx: release at cluster scope, followed by an implicit generic-async
            // proxy fence (PTX ISA 9.7.9.25.2, 9.7.13.15.5.2)
            ir::Event& c =
                l.exec(issueId, "complete_tx", {"MB", "MB_COMPLETE", "PF", "Release", "CLUSTER"});
            c.mbOp = ir::MbOp::CompleteTx;
            c.mbAmount = sizeOp.value;
            c.location = m->location;
            c.vaddr = m->vaddr;
            c.space = ir::Space::Mbarrier;
            c.proxy = ir::Proxy::Generic;
            c.tags.insert("GEN");
            c.sem = ir::Sem::Release;
            c.scope = ir::Scope::Cluster;
            c.fenceProxies = {ir::Proxy::Async};
        }
    }
    if (viaGroup) l.pendingBulk.push_back(issueId);
}

void lowerCommitGroup(Lowerer& l, Qualifiers& q) {
    q.finish();
    l.expectOperands(0);
    ir::Event& e = l.issue({"BCOMMIT"});
    int id = e.id;
    for (int copy : l.pendingBulk)
        l.program().events[static_cast<std::size_t>(copy)].bulkGroup = id;
    l.pendingBulk.clear();
    l.committedGroups.push_back(id);
}

void lowerWaitGroup(Lowerer& l, Qualifiers& q) {
    bool read = q.take("read");
    q.finish();
    l.expectOperands(1);
    const auto& n = l.operand(0);
    if (n.kind != litmus::Operand::Kind::Integer || n.value < 0 || n.value > 63)
        l.fail(n.loc, "wait_group needs an integer N in [0, 63]");
    // The implicit generic-async proxy fence belongs to the completion of each copy, not to the
    // wait (PTX ISA 9.7.9.25.2). wait_group.read completes only the source reads: whether it
    // orders them like a proxy fence is the model's decision Q8 (READ-WAIT-FENCE), so it carries
    // the coverage of one without being in PF.
    ir::Event& e = l.issue({"BWAIT", "BLOCKING"});
    e.bulkWaitN = static_cast<int>(n.value);
    e.bulkWaitRead = read;
    if (read) {
        e.tags.insert("BWAIT_READ");
        e.fenceProxies = {ir::Proxy::Async};
    }
}

} // namespace

bool lowerBulk(Lowerer& l) {
    const auto& p = l.inst().parts;
    if (p.size() < 3 || p[0] != "cp" || p[1] != "async" || p[2] != "bulk") {
        if (p.size() >= 2 && p[0] == "cp" && p[1] == "async")
            l.fail(l.inst().loc, "non-bulk cp.async is not supported");
        return false;
    }
    if (p.size() >= 4 && p[3] == "commit_group") {
        Qualifiers q(l.inst(), 4);
        lowerCommitGroup(l, q);
    } else if (p.size() >= 4 && p[3] == "wait_group") {
        Qualifiers q(l.inst(), 4);
        lowerWaitGroup(l, q);
    } else {
        Qualifiers q(l.inst(), 3);
        lowerCopy(l, q);
    }
    return true;
}

} // namespace ptxmc::lower
