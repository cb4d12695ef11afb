// Lowering driver: locations, registers, threads and the shared helpers of the families.
#include "lower/Lowerer.hpp"

#include "ir/Gates.hpp"
#include "ptx/Sections.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ptxmc::lower {

using ir::Tag;
using litmus::LocationDecl;
using litmus::Operand;

namespace {

/**
 * CTA numbers are per GPU in herd's and Dat3M's headers (`P1@cta 0,gpu 1` is another CTA than
 * `P0@cta 0,gpu 0`); ptxmc numbers CTAs across the test. A test that reuses a number on
 * another GPU gets that GPU's CTA a fresh number, unless it declares memory that names CTAs
 * by number (shared, tmem, mbarrier), where the number would be ambiguous.
 */
std::optional<ptx::Program> withDistinctCtas(const ptx::Program& test) {
    std::map<int, int> gpuOfCta;
    bool reused = false;
    for (const auto& t : test.threads) {
        auto [it, fresh] = gpuOfCta.emplace(t.cta, t.gpu);
        reused = reused || (!fresh && it->second != t.gpu);
    }
    if (!reused) return std::nullopt;
    for (const auto& d : test.locations)
        if (!d.ctas.empty()) return std::nullopt; // the check reports the clash at the header
    ptx::Program out = test;
    std::map<std::pair<int, int>, int> fresh; // (gpu, cta) -> number
    int next = 0;
    for (const auto& t : test.threads)
        next = std::max(next, t.cta + 1);
    for (auto& t : out.threads) {
        auto key = std::make_pair(t.gpu, t.cta);
        if (!fresh.count(key)) fresh[key] = gpuOfCta.at(t.cta) == t.gpu ? t.cta : next++;
        t.cta = fresh.at(key);
    }
    return out;
}

} // namespace

ir::Program lowerProgram(const ptx::Program& program, const LowerOptions& options) {
    if (auto renumbered = withDistinctCtas(program)) return Lowerer(*renumbered, options).run();
    return Lowerer(program, options).run();
}

ir::Program lowerTest(const litmus::Test& test, const LowerOptions& options) {
    return lowerProgram(ptx::decodeProgram(test), options);
}

Lowerer::Lowerer(const ptx::Program& test, const LowerOptions& options)
    : test_(test), options_(options) {
    program_.name = test.name;
    program_.file = test.file;
    program_.unroll = options.unroll;
}

void Lowerer::fail(const SourceLoc& loc, const std::string& message) const {
    throw InputError(loc, message);
}

void Lowerer::checkEventLimit(const SourceLoc& loc) const {
    if (program_.events.size() >= kMaxEvents)
        fail(loc, fmt::format("test has more than {} events; ptxmc checks at most that many "
                              "(litmus/README.md, Limits)",
                              kMaxEvents));
}

ir::Program Lowerer::run() {
    if (test_.threads.empty()) fail(SourceLoc{test_.file, 1, 1}, "test has no threads");
    if (test_.threads.size() > kMaxThreads)
        fail(test_.threads[kMaxThreads].loc,
             fmt::format("test has {} threads; ptxmc checks at most {} (litmus/README.md, Limits)",
                         test_.threads.size(), kMaxThreads));
    for (const auto& t : test_.threads) {
        ir::ThreadInfo info;
        info.id = t.id;
        info.cta = t.cta;
        info.gpu = t.gpu;
        info.cluster = t.cluster ? *t.cluster : -1 - t.cta; // own cluster when absent
        program_.threads.push_back(info);
    }
    // A CTA belongs to one cluster and one GPU: threads must agree.
    for (const auto& a : test_.threads)
        for (const auto& b : test_.threads)
            if (a.cta == b.cta && (a.gpu != b.gpu || a.cluster != b.cluster))
                fail(b.loc, "threads of CTA " + std::to_string(a.cta) +
                                " disagree on their cluster or gpu");
    declareLocations();
    declareRegisters();
    declareRegisterCells();
    for (std::size_t i = 0; i < test_.threads.size(); ++i)
        lowerThread(i);
    finishWidths();
    resolveAllocations(*this);
    resolveBarrierReductions();
    computeStaticDeadlocks();
    for (auto& cycle : ir::computeGates(program_))
        program_.staticDeadlocks.push_back(std::move(cycle));
    resolveCondition();
    checkIndeterminateUnread();
    checkUnknownUnused();
    return std::move(program_);
}

int Lowerer::vaddrFor(const std::string& name, int cta, int row) {
    auto key = std::make_tuple(name, cta, row);
    auto it = vaddrs_.find(key);
    if (it != vaddrs_.end()) return it->second;
    int id = static_cast<int>(vaddrs_.size());
    vaddrs_[key] = id;
    return id;
}

/**
 * The virtual address a declaration names. `s @ surface aliases x` (likewise texture,
 * constant) is x's address seen through another proxy ("virtually aliases" in the mixed-proxy
 * model); `y @ generic aliases x` is a second virtual address of x's memory ("physically
 * aliases"), which needs fence.proxy.alias (PTX ISA {Proxies}). Aliases chain, as in Dat3M's tests:
 * `s @ surface aliases y` with `y @ generic aliases x` is y's address through the surface
 * proxy, in x's memory.
 */
std::string Lowerer::virtualName(const LocationDecl& d) const {
    if (!d.aliasOf || d.aliasProxy == "generic") return d.name;
    return virtualName(*decls_.at(*d.aliasOf));
}

const LocationDecl* Lowerer::rootOf(const LocationDecl* d) const {
    while (d->aliasOf)
        d = decls_.at(*d->aliasOf);
    return d;
}

static std::string cellName(const LocationDecl& d, int cta, int row) {
    std::string n = d.name;
    if (d.ctas.size() > 1) n += "@" + std::to_string(cta);
    if (d.rows > 1 || d.isArray()) n += "[" + std::to_string(row) + "]";
    return n;
}

void Lowerer::declareLocations() {
    std::set<int> ctas;
    for (const auto& t : test_.threads)
        ctas.insert(t.cta);
    for (const auto& d : test_.locations) {
        if (decls_.count(d.name)) fail(d.loc, "location '" + d.name + "' declared twice");
        decls_[d.name] = &d;
    }
    declareImplicitLocations();
    std::vector<const LocationDecl*> all;
    for (const auto& d : test_.locations)
        all.push_back(&d);
    for (const auto& d : implicit_)
        all.push_back(&d);
    for (const LocationDecl* dp : all) {
        const LocationDecl& d = *dp;
        if (d.aliasOf || d.isMultimem()) continue;
        if (d.space != ir::Space::Global && d.ctas.empty())
            fail(d.loc, "'" + d.name + "' needs the CTA(s) it lives in");
        for (int c : d.ctas)
            if (!ctas.count(c))
                fail(d.loc, "'" + d.name + "' lives in CTA " + std::to_string(c) +
                                ", but no thread runs in that CTA");
        if (d.rows < 1 || d.rows > 128) fail(d.loc, "rows must be between 1 and 128");
        if (d.space != ir::Space::Tmem && d.rows != 1 && !d.isArray())
            fail(d.loc, "only tensor-memory locations have rows");
        if (d.isArray() && d.space == ir::Space::Tmem)
            fail(d.loc, "tensor memory has rows, not arrays");
        if (!d.values.empty() && d.values.size() != 1 &&
            static_cast<int>(d.values.size()) != d.rows)
            fail(d.loc, "give one initial value or one per row");
        if (d.space == ir::Space::Mbarrier && !d.values.empty())
            fail(d.loc, "an mbarrier has no value; use ', count N'");
        if (d.count && d.space != ir::Space::Mbarrier) fail(d.loc, "only mbarriers have a count");
        if (d.count && (*d.count < 1 || *d.count > (1 << 20) - 1))
            fail(d.loc, "mbarrier count must be in [1, 2^20-1]");
        std::vector<int> instances = d.ctas;
        if (instances.empty()) instances.push_back(-1);
        for (int c : instances) {
            for (int row = 0; row < d.rows; ++row) {
                ir::Location cell;
                cell.id = static_cast<int>(program_.locations.size());
                cell.name = cellName(d, c, row);
                cell.space = d.space;
                cell.cta = c;
                cells_[{d.name, c, row}] = cell.id;
                if (cell.space == ir::Space::Mbarrier) {
                    cell.mbCount = d.count ? *d.count : 0;
                } else {
                    ir::Event init;
                    init.id = static_cast<int>(program_.events.size());
                    init.text = "init " + cell.name;
                    init.loc = d.loc;
                    init.tags = {Tag::IW, Tag::W, Tag::M, spaceTag(cell.space)};
                    init.location = cell.id;
                    init.vaddr = vaddrFor(d.name, c, row);
                    init.space = cell.space;
                    init.cta = c;
                    std::int64_t v = d.values.empty() ? 0
                                     : d.values.size() == 1
                                         ? d.values[0]
                                         : d.values[static_cast<std::size_t>(row)];
                    init.written = ir::Value::makeConst(v);
                    cell.init = init.id;
                    program_.events.push_back(init);
                }
                program_.locations.push_back(cell);
            }
        }
    }
    for (const auto& d : test_.locations)
        if (d.isMultimem()) checkMultimemDecl(d);
    for (const auto& d : test_.locations) {
        if (!d.aliasOf) continue;
        std::set<std::string> seen{d.name};
        for (const LocationDecl* a = &d; a->aliasOf;) {
            auto it = decls_.find(*a->aliasOf);
            if (it == decls_.end())
                fail(a->loc, "'" + *a->aliasOf + "' is not a declared location");
            if (!seen.insert(it->first).second)
                fail(d.loc, "'" + d.name + "' aliases itself through a chain of aliases");
            a = it->second;
        }
    }
}

/**
 * `m @ multimem x, y`: "A multimem address is a virtual address which points to multiple distinct
 * memory locations across devices" (PTX ISA {MultimemAddresses#}): two or more distinct global
 * locations declared with one shape (m's element i is element i of each), none an alias or a
 * multimem address itself.
 */
void Lowerer::checkMultimemDecl(const LocationDecl& d) {
    if (d.multimemOf.size() < 2)
        fail(d.loc, "a multimem address points to \"multiple distinct memory locations across "
                    "devices\" (" +
                        ptx::cite(ptx::Sec::MultimemAddresses) + "): name two or more");
    std::set<std::string> seen;
    const LocationDecl* first = nullptr;
    for (std::size_t i = 0; i < d.multimemOf.size(); ++i) {
        const std::string& name = d.multimemOf[i];
        const SourceLoc& at = d.multimemLocs[i];
        auto it = decls_.find(name);
        if (it == decls_.end()) fail(at, "'" + name + "' is not a declared location");
        const LocationDecl& m = *it->second;
        if (!seen.insert(name).second)
            fail(at, "'" + name + "' is named twice: the locations are distinct");
        if (m.isMultimem() || m.aliasOf || m.space != ir::Space::Global)
            fail(at, "'" + name +
                         "' is not a global location of its own (a multimem address points to "
                         "global memory, one location per GPU)");
        if (!first) {
            first = &m;
        } else if (m.rows != first->rows || m.stride != first->stride) {
            fail(at, "'" + name + "' is not declared as '" + first->name +
                         "' is: the locations of one multimem address have one shape");
        }
    }
}

std::vector<Address> Lowerer::multimemAddresses(const Operand& op, int element, int bytes) {
    if (op.kind != Operand::Kind::Name && op.kind != Operand::Kind::Memory)
        fail(op.loc, "expected a location operand");
    auto it = decls_.find(op.name);
    if (it == decls_.end()) fail(op.loc, "'" + op.name + "' is not a declared location");
    const LocationDecl& m = *it->second;
    if (!m.isMultimem())
        fail(op.loc, "'" + op.name + "' is not a multimem address (declare one as '" + "m @ " +
                         "multimem x, y'): \"Address operand a must be a multimem address. "
                         "Otherwise, the behavior is undefined\" (" +
                         ptx::cite(ptx::Sec::Multimem) + ")");
    if (op.cta) fail(op.loc, "'" + op.name + "' is global memory: it has no CTA instance");
    std::vector<Address> out;
    for (std::size_t i = 0; i < m.multimemOf.size(); ++i) {
        const LocationDecl* member = decls_.at(m.multimemOf[i]);
        Address a;
        a.decl = member;
        a.row = rowOf(op, *member);
        a.location = cells_.at({member->name, -1, a.row});
        // the multimem address is a virtual address of its own for each location it points to:
        // a virtual alias of the location's own address (PTX ISA {Proxies})
        a.vaddr = vaddrFor(m.name + "->" + member->name, -1, a.row);
        if (element > 0) {
            const LocationDecl* root = rootOf(member);
            if (!root->isArray() || root->stride != bytes)
                fail(op.loc, "a vector multimem access reaches " + std::to_string(bytes) +
                                 "-byte elements at consecutive addresses of each location: "
                                 "declare '" +
                                 member->name + "' as an array of stride " + std::to_string(bytes) +
                                 " (litmus/README.md, Arrays)");
            a = elementAfter(a, op, element, bytes);
            a.vaddr = vaddrFor(m.name + "->" + member->name, -1, a.row);
        }
        out.push_back(a);
    }
    return out;
}

/**
 * herd and Dat3M give a location an instruction uses without declaring it global memory
 * holding 0: the address operands of ld, st, atom and red that name nothing declared become
 * such locations. The condition and `locations` must still name declared ones.
 */
void Lowerer::declareImplicitLocations() {
    std::set<std::string> registers;
    for (const auto& r : test_.registers)
        registers.insert(r.reg);
    for (const auto& t : test_.threads)
        for (const auto& item : t.code) {
            if (!item.decoded) continue; // a label, or an error lowering reports where it stands
            const ptx::Insn* insn = &*item.decoded;
            const auto& inst = *insn;
            std::optional<std::size_t> at;
            if (insn->is<ptx::Ld>() || (insn->is<ptx::Atom>() && insn->as<ptx::Atom>()->returns()))
                at = 1;
            else if (insn->is<ptx::St>() || insn->is<ptx::Atom>())
                at = 0;
            if (!at || *at >= inst.operands.size()) continue;
            const litmus::Operand& op = inst.operands[*at];
            bool named =
                op.kind == litmus::Operand::Kind::Memory || op.kind == litmus::Operand::Kind::Name;
            // An indexed address needs a declared array: that error names the operand.
            if (!named || decls_.count(op.name) || registers.count(op.name) || op.cta ||
                op.indexReg)
                continue;
            LocationDecl d;
            d.name = op.name;
            d.loc = op.loc;
            implicit_.push_back(d);
            decls_[d.name] = &implicit_.back();
        }
}

void Lowerer::declareRegisters() {
    for (const auto& r : test_.registers) {
        bool known = std::any_of(test_.threads.begin(), test_.threads.end(),
                                 [&](const ptx::Thread& t) { return t.id == r.thread; });
        if (!known)
            fail(r.loc, "register init for P" + std::to_string(r.thread) +
                            ", which is not a thread of this test");
        if (decls_.count(r.reg)) fail(r.loc, "'" + r.reg + "' is a location, not a register");
        auto& regs = initialRegisters_[r.thread];
        if (regs.count(r.reg))
            fail(r.loc,
                 "register P" + std::to_string(r.thread) + ":" + r.reg + " initialised twice");
        // a value beyond 32 bits makes a 64-bit register
        regs[r.reg] = ir::fits32(r.value)
                          ? ir::Value::makeConst(r.value)
                          : (program_.wordBits = 64, ir::Value::makeConst64(r.value));
    }
}

/**
 * The registers a wgmma.mma_async names (d, A when it is a register vector, and .sp's sp-meta)
 * become cells of their thread, outside the chapter-8 memory: the thread's reads and writes of them
 * and the mma's are events the model orders (model/wgmma.cat). The initial value is the register's
 * init, else 0.
 */
void Lowerer::declareRegisterCells() {
    for (const auto& t : test_.threads)
        for (const auto& item : t.code) {
            if (!item.decoded || !item.decoded->is<ptx::WgmmaMma>()) continue;
            const auto& ops = item.decoded->operands;
            bool sp = item.decoded->as<ptx::WgmmaMma>()->sp; // sp-meta, operand 3, too
            for (std::size_t i = 0; i < (sp ? 4 : 2) && i < ops.size(); ++i) {
                std::vector<litmus::Operand> regs;
                if (ops[i].kind == litmus::Operand::Kind::Vector && i < 2)
                    regs = ops[i].elements;
                else if ((i == 0 || i == 3) && ops[i].kind == litmus::Operand::Kind::Name)
                    regs = {ops[i]};
                for (const auto& r : regs) {
                    if (r.kind != litmus::Operand::Kind::Name || decls_.count(r.name)) continue;
                    if (regCells_.count({t.id, r.name})) continue;
                    ir::Location cell;
                    cell.id = static_cast<int>(program_.locations.size());
                    cell.name = "P" + std::to_string(t.id) + ":" + r.name;
                    cell.space = ir::Space::None;
                    cell.cta = t.cta;
                    ir::Event init;
                    init.id = static_cast<int>(program_.events.size());
                    init.text = "init " + cell.name;
                    init.loc = r.loc;
                    init.tags = {Tag::IW, Tag::W, Tag::M, Tag::WGREG};
                    init.location = cell.id;
                    init.vaddr = vaddrFor(cell.name, -1, 0);
                    init.space = cell.space;
                    init.cta = t.cta;
                    auto& regs0 = initialRegisters_[t.id];
                    auto known = regs0.find(r.name);
                    init.written = known != regs0.end() ? known->second : ir::Value::makeConst(0);
                    cell.init = init.id;
                    program_.events.push_back(init);
                    program_.locations.push_back(cell);
                    regCells_[{t.id, r.name}] = cell.id;
                }
            }
        }
}

int Lowerer::registerCell(const std::string& name) const {
    auto it = regCells_.find({thread_->id, name});
    return it == regCells_.end() ? -1 : it->second;
}

ir::Event& Lowerer::registerAccess(int cell, bool write, const std::string& role) {
    ir::Event& e = issue({write ? Tag::W : Tag::R, Tag::M, Tag::WGREG});
    const ir::Location& loc = program_.locations[static_cast<std::size_t>(cell)];
    e.text = inst_->opcode + " (" + role + " " + loc.name + ")";
    e.location = cell;
    e.vaddr = vaddrFor(loc.name, -1, 0);
    e.space = loc.space;
    setWeak(e);
    return e;
}

ir::Event& Lowerer::issue(std::initializer_list<Tag> tags) {
    checkEventLimit(inst_->loc);
    ir::Event e;
    e.id = static_cast<int>(program_.events.size());
    e.thread = static_cast<int>(threadIndex_);
    e.poIndex = static_cast<int>(threadInfo().events.size());
    e.instruction = instIndex_;
    e.instance = instance_;
    e.guard = path_.guard;
    e.ctrlSources.assign(path_.ctrl.begin(), path_.ctrl.end());
    e.text = inst_->opcode;
    e.loc = inst_->loc;
    for (Tag t : tags)
        e.tags.insert(t);
    e.cta = thread_->cta;
    e.cluster = threadInfo().cluster;
    e.gpu = thread_->gpu;
    threadInfo().events.push_back(e.id);
    program_.events.push_back(std::move(e));
    return program_.events.back();
}

ir::Event& Lowerer::exec(int issueId, const std::string& role, std::initializer_list<Tag> tags) {
    checkEventLimit(program_.events[static_cast<std::size_t>(issueId)].loc);
    ir::Event e;
    const ir::Event& parent = program_.events[static_cast<std::size_t>(issueId)];
    e.id = static_cast<int>(program_.events.size());
    e.thread = parent.thread;
    e.issue = issueId;
    e.instruction = parent.instruction;
    e.instance = parent.instance;
    e.guard = parent.guard; // an operation that is not issued performs nothing
    e.ctrlSources = parent.ctrlSources;
    e.text = parent.text + " (" + role + ")";
    e.loc = parent.loc;
    e.tags = {Tag::EXEC};
    for (Tag t : tags)
        e.tags.insert(t);
    e.cta = parent.cta;
    e.cluster = parent.cluster;
    e.gpu = parent.gpu;
    e.ctaGroup = parent.ctaGroup;
    program_.events.push_back(std::move(e));
    return program_.events.back();
}

Tag spaceTag(ir::Space s) {
    switch (s) {
    case ir::Space::Global:
        return Tag::GLOBAL;
    case ir::Space::Shared:
        return Tag::SHARED;
    case ir::Space::Tmem:
        return Tag::TMEM;
    case ir::Space::Mbarrier:
        return Tag::MB;
    case ir::Space::None:
        break;
    }
    return Tag::M;
}

void setOrdering(ir::Event& e, ir::Sem sem, ir::Scope scope) {
    e.sem = sem;
    e.scope = scope;
    if (auto t = semTag(sem)) e.tags.insert(*t);
    if (auto t = scopeTag(scope)) e.tags.insert(*t);
}

void setWeak(ir::Event& e) {
    setOrdering(e, ir::Sem::Weak, ir::Scope::None);
}

std::vector<litmus::Operand> vectorOperand(Lowerer& l, const litmus::Operand& op, int vec) {
    if (vec == 1) return {op};
    if (op.kind != litmus::Operand::Kind::Vector || op.elements.size() != std::size_t(vec))
        l.fail(op.loc, "'" + l.inst().opcode + "' takes a brace-enclosed vector of " +
                           std::to_string(vec) + " operands here");
    return op.elements;
}

ir::Event& completeTxAtCluster(Lowerer& l, int issueId, const Address& mb, std::int64_t bytes,
                               bool proxyFence) {
    ir::Event& c = l.exec(issueId, "complete_tx",
                          {Tag::MB, Tag::MB_COMPLETE, Tag::Release, Tag::CLUSTER, Tag::GEN});
    if (proxyFence) {
        c.tags.insert(Tag::PF);
        c.tags.insert(Tag::PF_ASYNC);
    }
    c.mbOp = ir::MbOp::CompleteTx;
    c.mbAmount = bytes;
    c.location = mb.location;
    c.vaddr = mb.vaddr;
    c.space = ir::Space::Mbarrier;
    c.proxy = ir::Proxy::Generic;
    c.sem = ir::Sem::Release;
    c.scope = ir::Scope::Cluster;
    return c;
}

static std::optional<Tag> proxyTag(ir::Proxy p) {
    switch (p) {
    case ir::Proxy::Generic:
        return Tag::GEN;
    case ir::Proxy::Async:
        return Tag::ASYNC;
    case ir::Proxy::Surface:
        return Tag::SURFACE;
    case ir::Proxy::Texture:
        return Tag::TEXTURE;
    case ir::Proxy::Constant:
        return Tag::CONSTANT;
    case ir::Proxy::Tmem:
        return Tag::TMEM;
    case ir::Proxy::Tensormap:
        return Tag::TENSORMAP;
    case ir::Proxy::None:
        break;
    }
    return std::nullopt;
}

void Lowerer::access(ir::Event& e, const Address& a, ir::Proxy proxy) {
    e.location = a.location;
    e.vaddr = a.vaddr;
    e.space = program_.locations[static_cast<std::size_t>(a.location)].space;
    e.proxy = proxy;
    e.tags.insert(Tag::M);
    e.tags.insert(spaceTag(e.space));
    if (auto t = proxyTag(proxy)) e.tags.insert(*t);
}

Address Lowerer::address(const Operand& op, std::optional<ir::Space> expected) {
    if (op.kind != Operand::Kind::Name && op.kind != Operand::Kind::Memory)
        fail(op.loc, "expected a location operand");
    auto it = decls_.find(op.name);
    if (it == decls_.end()) fail(op.loc, "'" + op.name + "' is not a declared location");
    Address a;
    a.decl = it->second;
    if (a.decl->isMultimem())
        fail(op.loc, "'" + op.name + "' is a multimem address: \"Only multimem.* operations are " +
                         "valid on multimem addresses. That is, the behavior of accessing a " +
                         "multimem address in any other memory operation is undefined\" (" +
                         ptx::cite(ptx::Sec::MultimemAddresses) + ")");
    const LocationDecl* root = rootOf(a.decl);
    if (root->space == ir::Space::Global) {
        if (op.cta) fail(op.loc, "'" + op.name + "' is global memory: it has no CTA instance");
    } else if (op.cta) {
        a.cta = *op.cta;
    } else if (root->ctas.size() == 1) {
        a.cta = root->ctas[0];
    } else {
        a.cta = thread_->cta;
    }
    if (root->space != ir::Space::Global &&
        std::find(root->ctas.begin(), root->ctas.end(), a.cta) == root->ctas.end())
        fail(op.loc, "'" + op.name + "' has no instance in CTA " + std::to_string(a.cta));
    a.row = rowOf(op, *root);
    a.location = cells_.at({root->name, a.cta, a.row});
    a.vaddr = vaddrFor(virtualName(*a.decl), a.cta, a.row);
    ir::Space space = root->space;
    if (expected && *expected != space) {
        static const char* names[] = {"none", "global", "shared", "tensor", "mbarrier"};
        fail(op.loc, "'" + op.name + "' is " + names[static_cast<int>(space)] +
                         " memory, but this operand needs " + names[static_cast<int>(*expected)] +
                         " memory");
    }
    return a;
}

std::string Lowerer::accessName(const Operand& op, const Address& a) {
    if (!a.decl || !a.decl->isArray()) return op.name;
    return op.name + "[" + std::to_string(a.row) + "]";
}

int Lowerer::rowOf(const Operand& op, const LocationDecl& root) {
    if (root.isArray()) return elementOf(op, root);
    if (op.indexReg)
        fail(op.indexLoc, "'" + op.name +
                              "' is not an array: an index register needs one "
                              "declared as '" +
                              op.name + "[N]' (litmus/README.md, Arrays)");
    if (op.value < 0 || op.value >= root.rows)
        fail(op.loc, "row " + std::to_string(op.value) + " is outside '" + op.name + "' (" +
                         std::to_string(root.rows) + " row(s))");
    return static_cast<int>(op.value);
}

/**
 * `[a+k]`, `[a+k*s]`, `[a+s]`: PTX addresses count bytes, so the element is the byte offset
 * over the array's stride, which must divide it; the register's value must be known now,
 * since each element is a location of its own.
 */
int Lowerer::elementOf(const Operand& op, const LocationDecl& root) {
    std::int64_t offset = op.value;
    std::string how; // how the offset was computed, for messages
    if (op.indexReg) {
        const std::int64_t index = indexValue(op);
        offset = op.indexScale * index; // |index| < 2^32, scale < 2^31: no overflow
        how = op.indexScale == 1 ? *op.indexReg + " = " + std::to_string(index)
                                 : std::to_string(op.indexScale) + "*" + *op.indexReg + ", " +
                                       *op.indexReg + " = " + std::to_string(index);
    }
    const SourceLoc& at = op.indexReg ? op.indexLoc : op.loc;
    const std::string range = root.name + "[0.." + std::to_string(root.rows - 1) + "]";
    const std::string bytes = std::to_string(root.stride) + " bytes per element";
    if (offset % root.stride != 0)
        fail(at, "byte offset " + std::to_string(offset) + (how.empty() ? "" : " (" + how + ")") +
                     " is not a multiple of the element size of " + range + " (" + bytes + ")");
    const std::int64_t element = offset / root.stride;
    if (element < 0 || element >= root.rows)
        fail(at, "index " + std::to_string(element) + " is outside " + range + " (byte offset " +
                     std::to_string(offset) + (how.empty() ? "" : ": " + how) + "; " + bytes + ")");
    return static_cast<int>(element);
}

std::int64_t Lowerer::indexValue(const Operand& op) {
    const std::string& reg = *op.indexReg;
    if (decls_.count(reg))
        fail(op.indexLoc, "'" + reg + "' is a location; an array index is a register");
    auto it = registers_.find(reg);
    if (registerCell(reg) >= 0 || (it != registers_.end() && !it->second->isConst()))
        fail(op.indexLoc, "the index register '" + reg +
                              "' holds a run-time value here (it depends on a load, a wait or "
                              "a branch on one): an array index must be known when the test is "
                              "lowered (litmus/README.md, Arrays)");
    if (it == registers_.end())
        fail(op.indexLoc, "register '" + reg + "' is used but never defined in P" +
                              std::to_string(thread_->id) + " (initialise it in the init block)");
    return wrap32(it->second->constant);
}

void Lowerer::checkReach(const Address& a, const Operand& op, bool viaCluster) {
    if (a.cta < 0 || a.cta == thread_->cta) return;
    const auto& loc = program_.locations[static_cast<std::size_t>(a.location)];
    if (loc.space == ir::Space::Tmem)
        fail(op.loc, "tensor memory of another CTA is reached only by cta_group::2 instructions");
    if (!viaCluster)
        fail(op.loc, "'" + op.name + "@" + std::to_string(a.cta) +
                         "' is in another CTA: "
                         "access it through .shared::cluster");
    int myCluster = threadInfo().cluster;
    for (const auto& t : program_.threads)
        if (t.cta == a.cta && t.cluster != myCluster)
            fail(op.loc, "CTA " + std::to_string(a.cta) + " is not in this thread's cluster");
}

std::vector<std::vector<Address>>
Lowerer::multicastTargets(const litmus::Operand& mask, int bits,
                          const std::vector<std::pair<Address, const litmus::Operand*>>& of) {
    if (mask.kind != litmus::Operand::Kind::Integer || mask.value <= 0 ||
        mask.value > (std::int64_t{1} << bits) - 1)
        fail(mask.loc, "ctaMask must be a non-zero " + std::to_string(bits) + "-bit integer");
    std::vector<std::vector<Address>> out;
    for (int rank = 0; rank < bits; ++rank) {
        if (!((mask.value >> rank) & 1)) continue;
        const int cta = ctaOfRank(thread().cta, rank);
        std::vector<Address> moved;
        for (const auto& [a, op] : of) {
            auto m = cta < 0 ? std::nullopt : addressInCta(a, cta);
            if (!m) {
                std::string names;
                for (const auto& [other, otherOp] : of)
                    names += (names.empty() ? "'" : " or '") + otherOp->name + "'";
                fail(mask.loc, "ctaMask names cluster rank " + std::to_string(rank) + ", where " +
                                   names + " is not declared");
            }
            moved.push_back(*m);
        }
        out.push_back(std::move(moved));
    }
    return out;
}

std::optional<Address> Lowerer::addressInCta(const Address& a, int cta) {
    const LocationDecl* root = rootOf(a.decl);
    auto cell = cells_.find({root->name, cta, a.row});
    if (cell == cells_.end()) return std::nullopt;
    Address b = a;
    b.cta = cta;
    b.location = cell->second;
    b.vaddr = vaddrFor(virtualName(*a.decl), cta, a.row);
    return b;
}

std::set<int> Lowerer::initLayouts(const Address& a) const {
    const litmus::LocationDecl* root = rootOf(a.decl);
    std::set<int> out;
    if (root->count) out.insert(0);
    for (const ptx::Thread& t : test_.threads)
        for (const ptx::CodeItem& item : t.code) {
            if (item.isLabel() || !item.decoded) continue;
            const auto* init = item.decoded->as<ptx::MbarrierInit>();
            if (!init || init->inval || item.decoded->operands.empty()) continue;
            auto d = decls_.find(item.decoded->operands[0].name);
            if (d != decls_.end() && rootOf(d->second) == root)
                out.insert(init->layout < 0 ? 0 : init->layout);
        }
    return out;
}

void Lowerer::checkAccessWidth(const Address& a, const Operand& op, int bytes) const {
    const LocationDecl* root = rootOf(a.decl);
    // a cell holds one element whatever its width: an access that spans elements would touch
    // the first cell only and miss its conflicts with the others
    if (!root->isArray() || bytes <= root->stride) return;
    fail(op.loc, "a " + std::to_string(bytes) + "-byte access of '" + op.name + "', an array of " +
                     std::to_string(root->stride) +
                     "-byte elements: each element is a cell of its own, and the access would "
                     "span the next one (declare '" +
                     root->name + "' with stride " + std::to_string(bytes) +
                     ", or access the elements as a vector; litmus/README.md, Arrays)");
}

void Lowerer::checkStoreWidth(const Address& a, const Operand& op, int bytes) const {
    checkAccessWidth(a, op, bytes);
    const LocationDecl* root = rootOf(a.decl);
    const int cell = root->isArray() && root->stride < 4 ? root->stride : 4;
    if (bytes >= cell) return;
    fail(op.loc, "a " + std::to_string(bytes) + "-byte store to '" + op.name + "', a " +
                     std::to_string(cell) +
                     "-byte cell: it would write part of the cell and keep the rest, and ptxmc's "
                     "writes replace whole cells; declare '" +
                     op.name + "' as an array of stride " + std::to_string(bytes) +
                     " (litmus/README.md, Arrays)");
}

ir::ValuePtr Lowerer::unknownValue(const SourceLoc& at, const std::string& what) {
    auto v = std::make_shared<ir::Value>();
    v->op = ir::Value::Op::Unknown;
    v->constant = static_cast<std::int64_t>(unknowns_.size());
    unknowns_.emplace_back(at, what);
    return v;
}

namespace {

/** The origin index of an unknown value `v` depends on, or -1. */
std::int64_t unknownIn(const ir::ValuePtr& v, std::set<const ir::Value*>& seen) {
    if (!v || !seen.insert(v.get()).second) return -1;
    if (v->op == ir::Value::Op::Unknown) return v->constant;
    for (const auto& a : v->args)
        if (const std::int64_t u = unknownIn(a, seen); u >= 0) return u;
    return -1;
}

} // namespace

void Lowerer::checkUnknownUnused() const {
    if (unknowns_.empty()) return;
    std::set<const ir::Value*> seen; // values already searched (none of them depends on one)
    auto check = [&](const ir::ValuePtr& v, const std::string& use) {
        const std::int64_t u = unknownIn(v, seen);
        if (u < 0) return;
        const auto& [at, what] = unknowns_[static_cast<std::size_t>(u)];
        fail(at, what + ", and ptxmc holds no unknown values: " + use + " depends on it");
    };
    for (const ir::Event& e : program_.events) {
        const std::string use =
            "'" + e.text + "'" +
            (e.thread >= 0
                 ? " of P" + std::to_string(program_.threads[static_cast<std::size_t>(e.thread)].id)
                 : "");
        check(e.written, "the value " + use + " writes");
        check(e.guard, "whether " + use + " runs");
        check(e.mbParity, "the parity " + use + " waits on");
        check(e.mbToken, "the token " + use + " waits on");
        check(e.mbReport, "whether the copy of " + use + " reports");
    }
    for (const ir::Cut& c : program_.cuts)
        check(c.guard, "whether '" + c.text + "' loops again");
    for (const ir::Observable& o : program_.observed)
        check(o.reg, "the test's observed " + o.name);
}

void Lowerer::noteIndeterminate(const ir::Event& e, const SourceLoc& loc) {
    indeterminate_.emplace(e.location, loc);
}

void Lowerer::checkIndeterminateUnread() const {
    for (const auto& [location, at] : indeterminate_) {
        const std::string& name = program_.locations[static_cast<std::size_t>(location)].name;
        const std::string why =
            "this copy leaves '" + name +
            "' indeterminate (\"the value of the corresponding bytes in destination shared "
            "memory [dstMem .. dstMem+size) is indeterminate\", " +
            ptx::cite(ptx::Sec::CpAsyncBulk) +
            ") and ptxmc holds no unknown values, so nothing may read it: ";
        for (const ir::Observable& o : program_.observed)
            if (o.location == location) fail(at, why + "the test observes it");
        for (const ir::Event& e : program_.events)
            if (e.location == location && e.has(ir::Tag::R) && e.thread >= 0)
                fail(at,
                     why + "'" + e.text + "' of P" +
                         std::to_string(program_.threads[static_cast<std::size_t>(e.thread)].id) +
                         " reads it");
    }
}

int Lowerer::elementStride(const Address& a) const {
    const LocationDecl* root = rootOf(a.decl);
    return root->isArray() ? root->stride : 0;
}

Address Lowerer::elementAfter(const Address& a, const Operand& op, int k, int bytes) {
    const LocationDecl* root = rootOf(a.decl);
    const std::string size = std::to_string(bytes) + "-byte";
    if (!root->isArray() || root->stride != bytes)
        fail(op.loc, "a vector or packed access reaches " + size +
                         " elements at consecutive addresses: "
                         "declare '" +
                         op.name + "' as an array of stride " + std::to_string(bytes) +
                         " (litmus/README.md, Arrays)");
    const int row = a.row + k;
    if (row >= root->rows)
        fail(op.loc, "element " + std::to_string(k) + " of the vector, " + root->name + "[" +
                         std::to_string(row) + "], is outside " + root->name + "[0.." +
                         std::to_string(root->rows - 1) + "]");
    Address b = a;
    b.row = row;
    b.location = cells_.at({root->name, a.cta, row});
    b.vaddr = vaddrFor(virtualName(*a.decl), a.cta, row);
    return b;
}

ir::ValuePtr Lowerer::value(const Operand& op) {
    if (op.negated) { // `!p` (the decoder allows it only where PTX writes {!}a)
        Operand plain = op;
        plain.negated = false;
        return ir::Value::make(ir::Value::Op::Not, {value(plain)});
    }
    if (op.kind == Operand::Kind::Integer) {
        if (!ir::fits32(op.value))
            fail(op.loc, "value " + std::to_string(op.value) +
                             " does not fit this instruction's 32-bit operand (-2147483648 to "
                             "4294967295); 64-bit instructions (.b64, .u64, .s64) take 64-bit "
                             "values");
        return ir::Value::makeConst(op.value);
    }
    if (op.kind != Operand::Kind::Name) fail(op.loc, "expected a register or an integer");
    if (decls_.count(op.name))
        fail(op.loc, "'" + op.name + "' is a location; a register or an integer is needed here");
    if (int cell = registerCell(op.name); cell >= 0)
        return ir::Value::readOf(registerAccess(cell, false, "read").id);
    auto it = registers_.find(op.name);
    if (it == registers_.end())
        fail(op.loc, "register '" + op.name + "' is used but never defined in P" +
                         std::to_string(thread_->id) + " (initialise it in the init block)");
    return it->second;
}

ir::ValuePtr Lowerer::value64(const Operand& op, bool isSigned) {
    program_.wordBits = 64; // a 64-bit instruction: the engines' words hold its values
    if (op.kind == Operand::Kind::Integer && !op.negated) return ir::Value::makeConst64(op.value);
    ir::ValuePtr v = value(op);
    if (wideValue(*v)) return v;
    // a 32-bit register, which PTX would not allow here ("Source register size must be of equal
    // or greater size than the instruction-type size", PTX ISA 9.4.1 Table 27): a constant as
    // written (an init-block or mov.u32 value), a run-time value sign-extended for a signed type
    // and zero-extended otherwise, as 9.4.1 extends a narrower result into a wider register
    if (v->isConst()) return ir::Value::makeConst64(v->constant);
    if (isSigned) return v;
    return ir::Value::make(ir::Value::Op::And64, {v, ir::Value::makeConst64(0xffffffff)});
}

ir::ValuePtr Lowerer::narrowed(const ir::ValuePtr& v) const {
    if (!wideValue(*v)) return v;
    return ir::Value::make(ir::Value::Op::Or, {v, ir::Value::makeConst(0)}); // its low half
}

void Lowerer::noteWidth(ir::Event& e, const Operand& op, int bytes) {
    if (e.location < 0) return;
    if (bytes == 8) {
        e.wide = true;
        program_.locations[static_cast<std::size_t>(e.location)].bits = 64;
        program_.wordBits = 64;
        wideAccess_.emplace(e.location, op.loc);
    } else if (bytes < 8) {
        e.narrow = true;
        if (e.has(ir::Tag::W)) narrowWrite_.emplace(e.location, op.loc);
    }
}

void Lowerer::finishWidths() {
    // a 32-bit (or narrower) write of a 64-bit register stores its low half ("the source data is
    // truncated (chopped) to the appropriate number of bits specified by the instruction
    // type-size", PTX ISA 9.4.1, #operand-size-exceeding-instruction-type-size)
    for (auto& e : program_.events)
        if (e.narrow && e.written && wideValue(*e.written)) e.written = narrowed(e.written);
    for (const auto& [cell, id] : cells_) {
        auto& loc = program_.locations[static_cast<std::size_t>(id)];
        if (loc.init < 0) continue;
        auto& init = program_.events[static_cast<std::size_t>(loc.init)];
        if (!init.written || !init.written->isConst() || init.written->wide) continue;
        if (loc.bits == 64) {
            init.written = ir::Value::makeConst64(init.written->constant);
        } else if (!ir::fits32(init.written->constant)) {
            fail(decls_.at(std::get<0>(cell))->loc,
                 "'" + loc.name + "' starts at " + std::to_string(init.written->constant) +
                     ", which does not fit a 32-bit location (-2147483648 to 4294967295): a "
                     "location holds 64-bit values when a 64-bit access (.b64, .u64, .s64) "
                     "reaches it");
        }
    }
    for (const auto& [location, at] : narrowWrite_) {
        auto wide = wideAccess_.find(location);
        if (wide == wideAccess_.end()) continue;
        const auto& name = program_.locations[static_cast<std::size_t>(location)].name;
        fail(at, "a write of fewer than 8 bytes to '" + name +
                     "', which a 64-bit access reads or "
                     "writes at " +
                     wide->second.str() +
                     ": it would keep the location's other bytes, and ptxmc's writes replace "
                     "whole cells (litmus/README.md, 64-bit values)");
    }
}

bool Lowerer::wideValue(const ir::Value& v) const {
    switch (v.op) {
    case ir::Value::Op::ReadOf:
        return program_.events[static_cast<std::size_t>(v.event)].wide;
    case ir::Value::Op::Ite:
        return wideValue(*v.args.at(1)) || wideValue(*v.args.at(2));
    default: // a 64-bit constant or operation; a 32-bit one otherwise
        return v.wide;
    }
}

ir::ValuePtr Lowerer::newChoice(const SourceLoc& loc, const std::string& text) {
    const auto index = static_cast<int>(program_.choices.size());
    program_.choices.push_back({static_cast<int>(threadIndex_), loc, text});
    return ir::Value::choice(index);
}

void Lowerer::define(const Operand& op, ir::ValuePtr v) {
    if (op.kind == Operand::Kind::Sink) return;
    if (op.kind != Operand::Kind::Name) fail(op.loc, "expected a destination register");
    if (decls_.count(op.name))
        fail(op.loc, "'" + op.name + "' is a location; a destination register is needed here");
    if (int cell = registerCell(op.name); cell >= 0) {
        registerAccess(cell, true, "write").written = std::move(v);
        return;
    }
    registers_[op.name] = std::move(v);
}

const Operand& Lowerer::operand(std::size_t i) {
    if (i >= inst_->operands.size())
        fail(inst_->loc,
             "'" + inst_->opcode + "' needs at least " + std::to_string(i + 1) + " operand(s)");
    return inst_->operands[i];
}

void Lowerer::expectOperands(std::size_t n) {
    if (inst_->operands.size() != n) {
        SourceLoc loc = inst_->operands.size() > n ? inst_->operands[n].loc : inst_->loc;
        fail(loc, "'" + inst_->opcode + "' takes " + std::to_string(n) + " operand(s), found " +
                      std::to_string(inst_->operands.size()));
    }
}

int Lowerer::ctaOfRank(int cta, int rank) const {
    int cluster = -1;
    std::set<int> members;
    for (const auto& t : program_.threads)
        if (t.cta == cta) cluster = t.cluster;
    for (const auto& t : program_.threads)
        if (t.cluster == cluster) members.insert(t.cta);
    // Declared-only CTAs (locations in a CTA without threads) are rejected earlier.
    int r = 0;
    for (int c : members) {
        if (r == rank) return c;
        ++r;
    }
    return -1;
}

int Lowerer::symbolId(const std::string& text) {
    return symbols_.emplace(text, static_cast<int>(symbols_.size())).first->second;
}

int Lowerer::clusterRank(int cta) const {
    for (int r = 0; r < 64; ++r)
        if (ctaOfRank(cta, r) == cta) return r;
    return 0;
}

int Lowerer::peerCta(int cta) const {
    return ctaOfRank(cta, clusterRank(cta) ^ 1);
}

void Lowerer::noteCtaGroup(int group, const SourceLoc& loc) {
    if (ctaGroup_ == 0) {
        ctaGroup_ = group;
        ctaGroupLoc_ = loc;
    } else if (ctaGroup_ != group) {
        fail(loc, "all tcgen05 instructions of a kernel must use the same .cta_group: this one "
                  "uses cta_group::" +
                      std::to_string(group) + ", " + ctaGroupLoc_.str() +
                      " uses cta_group::" + std::to_string(ctaGroup_) + " (" +
                      ptx::cite(ptx::Sec::Tcgen05IssueGranularity) + ")");
    }
}

void Lowerer::computeStaticDeadlocks() {
    // Each instance of bar.sync N completes when its expected number of threads arrived: the
    // thread count / 32 litmus threads, or every thread of the CTA (PTX ISA {BarBarrier}); an
    // instance of barrier.cluster when every thread of the cluster arrived ({BarrierCluster}).
    std::map<std::tuple<int, int, int>, std::vector<const ir::Event*>> arrivals;
    for (const auto& e : program_.events)
        if (e.has(Tag::BAR_ARRIVE)) arrivals[ir::barrierKey(e)].push_back(&e);
    std::map<int, int> ctaThreads, clusterThreads;
    for (const auto& t : program_.threads) {
        ctaThreads[t.cta]++;
        clusterThreads[t.cluster]++;
    }
    // A thread that runs exit (or ret) no longer counts: bar.sync waits for "non-exited threads
    // of all other warps participating in the barrier", barrier.cluster.wait "for all non-exited
    // threads of the cluster" (9.4: 9.7.15.1, 9.7.15.3; {BarBarrier}, {BarrierCluster}). An
    // exited thread that made at most k arrivals at a barrier is gone before its instance k.
    std::map<std::pair<std::size_t, int>, int> arrivedAt; // (thread index, barrier) -> count
    for (const auto& e : program_.events)
        if (e.has(Tag::BAR_ARRIVE)) arrivedAt[{static_cast<std::size_t>(e.thread), e.barrierId}]++;
    auto exitedBefore = [&](bool cluster, int unit, int id, int instance) {
        int n = 0;
        for (std::size_t t : exited_) {
            const ir::ThreadInfo& info = program_.threads[t];
            if ((cluster ? info.cluster : info.cta) != unit) continue;
            auto it = arrivedAt.find({t, id});
            if ((it == arrivedAt.end() ? 0 : it->second) <= instance) ++n;
        }
        return n;
    };
    for (const auto& [key, events] : arrivals) {
        auto [unit, id, instance] = key;
        const int cta = unit;
        int expected = events.front()->barrierWarps;
        for (const auto* e : events)
            if (e->barrierWarps != expected)
                fail(e->loc,
                     "threads disagree on the thread count of barrier " + std::to_string(id));
        if (id == ir::kClusterBarrier) {
            int all = clusterThreads[unit] - exitedBefore(true, unit, id, instance);
            if (static_cast<int>(events.size()) < all)
                program_.staticDeadlocks.push_back(
                    "barrier.cluster (instance " + std::to_string(instance) + ") waits for " +
                    std::to_string(all) + " thread(s) of the cluster; only " +
                    std::to_string(events.size()) + " arrive");
            continue;
        }
        // With a thread count, the participants are the threads that arrive: the count stays.
        if (expected == 0) expected = ctaThreads[cta] - exitedBefore(false, cta, id, instance);
        int arrived = static_cast<int>(events.size());
        if (arrived > expected)
            fail(events.back()->loc, "barrier " + std::to_string(id) + " expects " +
                                         std::to_string(expected) + " thread(s) but " +
                                         std::to_string(arrived) + " arrive");
        if (arrived < expected)
            program_.staticDeadlocks.push_back(
                "barrier " + std::to_string(id) + " (instance " + std::to_string(instance) +
                ") in CTA " + std::to_string(cta) + " waits for " + std::to_string(expected) +
                " thread(s); only " + std::to_string(arrived) + " arrive");
    }
}

void Lowerer::addBarrierReduction(int arrival, ptx::BarrierRedOp op, ir::ValuePtr input,
                                  const Operand& dest) {
    // A leaf whose operand, the reduction, is filled in place once every thread is lowered, so
    // every value built on it reads the reduction.
    auto result = std::make_shared<ir::Value>();
    result->op = ir::Value::Op::BarrierResult;
    result->event = arrival;
    barrierReductions_[arrival] = {op, std::move(input), result, inst_->loc};
    define(dest, result);
}

namespace {

/** The value of barrier.red's operation over each thread's 0-or-1 predicate (PTX ISA
 *  {BarBarrier}): each litmus thread is a warp of 32 lanes holding its predicate. */
ir::ValuePtr reduction(ptx::BarrierRedOp op, const std::vector<ir::ValuePtr>& predicates) {
    using ir::Value;
    ir::ValuePtr out;
    switch (op) {
    case ptx::BarrierRedOp::Popc: // "the number of threads with a True predicate"
        out = Value::makeConst(0);
        for (const auto& p : predicates)
            out = Value::make(Value::Op::Add,
                              {out, Value::make(Value::Op::Mul, {p, Value::makeConst(32)})});
        return out;
    case ptx::BarrierRedOp::And: // "all the threads had a True predicate"
        out = Value::makeConst(1);
        for (const auto& p : predicates)
            out = Value::make(Value::Op::LAnd, {out, p});
        return out;
    case ptx::BarrierRedOp::Or: // "any of the threads had a True predicate"
        out = Value::makeConst(0);
        for (const auto& p : predicates)
            out = Value::make(Value::Op::LOr, {out, p});
        return out;
    }
    return out;
}

} // namespace

void Lowerer::resolveBarrierReductions() {
    using ir::Value;
    std::map<std::tuple<int, int, int>, std::vector<const ir::Event*>> instances;
    for (const auto& e : program_.events)
        if (e.has(Tag::BAR_ARRIVE) && e.barrierId != ir::kClusterBarrier)
            instances[ir::barrierKey(e)].push_back(&e);
    for (const auto& [key, arrivals] : instances) {
        const BarrierReduction* red = nullptr;
        for (const ir::Event* e : arrivals)
            if (auto it = barrierReductions_.find(e->id); it != barrierReductions_.end())
                red = &it->second;
        if (red == nullptr) continue;
        std::vector<ir::ValuePtr> predicates;
        for (const ir::Event* e : arrivals) {
            auto it = barrierReductions_.find(e->id);
            if (it == barrierReductions_.end() || it->second.op != red->op)
                fail(it == barrierReductions_.end() ? e->loc : it->second.loc,
                     "barrier " + std::to_string(std::get<1>(key)) + " (instance " +
                         std::to_string(std::get<2>(key)) +
                         ") mixes bar.red with another barrier instruction or reduction: "
                         "'barrier{.cta}.red should not be intermixed with barrier{.cta}.sync or "
                         "barrier{.cta}.arrive using the same active barrier. Execution in this "
                         "case is unpredictable.' (" +
                         ptx::cite(ptx::Sec::BarBarrier) + ")");
            predicates.push_back(asPredicate(it->second.input));
        }
        const ir::ValuePtr combined = reduction(red->op, predicates);
        for (const ir::Event* e : arrivals)
            barrierReductions_.at(e->id).result->args = {combined};
    }
}

} // namespace ptxmc::lower
