// Folding variants into the default model: each variant's `let`s become Reading choices.
#include "cat/Readings.hpp"

#include "cat/EmbeddedModel.hpp"
#include "cat/Loader.hpp"
#include "support/SourceLoc.hpp"

#include <memory>
#include <optional>

namespace ptxmc::cat {

namespace {

bool sameLoc(const SourceLoc& a, const SourceLoc& b) {
    return a.file == b.file && a.line == b.line && a.col == b.col;
}

/** "Q1 (<section>)" from a decision's comment "Q1 (<section> #<anchor>): which ...": the
 *  question and its sections, without the HTML anchors (decisions.cat has them). */
std::string decisionLabel(const std::string& doc) {
    std::size_t end = doc.find("):");
    std::string head =
        end != std::string::npos ? doc.substr(0, end + 1) : doc.substr(0, doc.find(". "));
    std::string out;
    for (std::size_t i = 0; i < head.size(); ++i) {
        if (head[i] == ' ' && i + 1 < head.size() && head[i + 1] == '#') {
            i = head.find_first_of(",)", i);
            if (i == std::string::npos) break;
            out += head[i];
            continue;
        }
        out += head[i];
    }
    return out;
}

/** The comment of the last `let name` among the first `count` statements of `base`. */
const Stmt* replaced(const Model& base, std::size_t count, const std::string& name) {
    for (std::size_t i = count; i-- > 0;) {
        const Stmt& s = base.stmts[i];
        if (s.kind == Stmt::Kind::Let && s.bindings.at(0).name == name) return &s;
    }
    return nullptr;
}

/** `let name = (expr under reading, else name)`, where the second `name` is the old one. */
Stmt choiceOf(const Stmt& own, const std::string& reading) {
    Stmt s = own;
    Binding& b = s.bindings.at(0);
    auto previous = std::make_shared<Expr>();
    previous->op = Expr::Op::Name;
    previous->name = b.name;
    previous->loc = b.loc;
    auto choice = std::make_shared<Expr>();
    choice->op = Expr::Op::Reading;
    choice->name = reading;
    choice->args = {b.expr, previous};
    choice->loc = b.expr->loc;
    b.expr = choice;
    return s;
}

} // namespace

Model combineReadings(const Model& base, const std::vector<Variant>& variants) {
    // inserts[k]: the choices that go before base.stmts[k] (k == size: at the end).
    std::vector<std::vector<Stmt>> inserts(base.stmts.size() + 1);
    Model out = base;
    for (const Variant& v : variants) {
        const std::string& own = v.model.files.at(0);
        const std::string file = v.reading.modelFile();
        ReadingInfo info{v.reading, v.model.title, {}};
        std::size_t k = 0;
        for (const Stmt& s : v.model.stmts) {
            if (s.loc.file != own) {
                if (k >= base.stmts.size() || !sameLoc(s.loc, base.stmts[k].loc))
                    throw InputError(s.loc, file + " is not the default model with definitions "
                                                   "of its own: this statement is out of place");
                ++k;
                continue;
            }
            if (s.kind != Stmt::Kind::Let)
                throw InputError(s.loc, file + ": a variant may only redefine 'let's");
            const std::string& name = s.bindings.at(0).name;
            const Stmt* old = replaced(base, k, name);
            if (old == nullptr)
                throw InputError(s.loc,
                                 file + ": '" + name +
                                     "' redefines no earlier definition of the default model");
            inserts[k].push_back(choiceOf(s, file));
            info.decisions.emplace_back(name, decisionLabel(old->doc));
        }
        if (k != base.stmts.size())
            throw InputError(SourceLoc{own, 1, 1},
                             file + " leaves out statements of the default model");
        out.readings.push_back(std::move(info));
    }
    out.stmts.clear();
    for (std::size_t k = 0; k <= base.stmts.size(); ++k) {
        for (Stmt& s : inserts[k])
            out.stmts.push_back(std::move(s));
        if (k < base.stmts.size()) out.stmts.push_back(base.stmts[k]);
    }
    return out;
}

Model builtinModelWithReadings() {
    std::vector<Variant> variants;
    for (const auto& f : embeddedModelFiles()) // sorted by path
        if (std::optional<ReadingId> reading = ReadingId::ofModelFile(f.path))
            variants.push_back({*reading, loadBuiltinModel(f.path)});
    return combineReadings(loadBuiltinModel(), variants);
}

} // namespace ptxmc::cat
