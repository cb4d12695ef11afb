// Cat expression printer.
#include "cat/ExprText.hpp"

namespace ptxmc::cat {

namespace {

std::string joined(const Expr& e, const char* op) {
    std::string s;
    for (std::size_t i = 0; i < e.args.size(); ++i) {
        const Expr& a = *e.args[i];
        bool atom = a.op == Expr::Op::Name || a.op == Expr::Op::Bracket ||
                    a.op == Expr::Op::Empty || a.op == Expr::Op::Universe;
        s += (i ? op : "") + (atom ? exprText(a) : "(" + exprText(a) + ")");
    }
    return s;
}

std::string postfix(const Expr& e, const char* suffix) {
    const Expr& a = *e.args.at(0);
    bool atom = a.op == Expr::Op::Name || a.op == Expr::Op::Bracket;
    return (atom ? exprText(a) : "(" + exprText(a) + ")") + suffix;
}

} // namespace

std::string exprText(const Expr& e) {
    using Op = Expr::Op;
    switch (e.op) {
    case Op::Name:
        return e.name;
    case Op::Empty:
        return "0";
    case Op::Universe:
        return "_";
    case Op::Union:
        return joined(e, " | ");
    case Op::Inter:
        return joined(e, " & ");
    case Op::Diff:
        return joined(e, " \\ ");
    case Op::Seq:
        return joined(e, " ; ");
    case Op::Cartesian:
        return joined(e, " * ");
    case Op::Complement:
        return "~" + postfix(e, "");
    case Op::Inverse:
        return postfix(e, "^-1");
    case Op::Plus:
        return postfix(e, "+");
    case Op::Star:
        return postfix(e, "*");
    case Op::Opt:
        return postfix(e, "?");
    case Op::Bracket:
        return "[" + exprText(*e.args.at(0)) + "]";
    case Op::Domain:
        return "domain(" + exprText(*e.args.at(0)) + ")";
    case Op::Range:
        return "range(" + exprText(*e.args.at(0)) + ")";
    case Op::Reading:
        return "(" + exprText(*e.args.at(0)) + " under " + e.name + ", else " +
               exprText(*e.args.at(1)) + ")";
    }
    return "?";
}

} // namespace ptxmc::cat
