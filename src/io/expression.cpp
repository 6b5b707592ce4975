// Recursive-descent parser for problem-file expressions (grammar in PROBLEM_FORMAT.md):
//
//   expression := term (('+' | '-') term)*
//   term       := unary (('*' | '/') unary)*
//   unary      := ('-' | '+') unary | power
//   power      := primary ('^' unary)?          right-associative, tighter than unary minus
//   primary    := number | name | name '[' expression ']' | name '(' arguments ')' | '(' expression ')'
//
// so -x^2 = -(x^2), 2^3^2 = 2^(3^2) and 2^-1 = 0.5. The lexer is lazy, so the first error in
// reading order is the one reported.
#include "stasis/io/expression.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>
#include <system_error>
#include <utility>

#include "stasis/error.hpp"

namespace stasis::io {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Deep enough for any real expression, shallow enough that fuzzed input cannot overflow the stack.
constexpr int kMaxDepth = 200;

struct FunctionInfo {
  const char* name;
  int min_args;
  int max_args;  // -1: no limit
  sym::Expr (*build)(const std::vector<sym::Expr>& args);
};

sym::Expr fold_min(const std::vector<sym::Expr>& a) {
  sym::Expr r = a[0];
  for (std::size_t i = 1; i < a.size(); ++i) r = sym::fmin(r, a[i]);
  return r;
}
sym::Expr fold_max(const std::vector<sym::Expr>& a) {
  sym::Expr r = a[0];
  for (std::size_t i = 1; i < a.size(); ++i) r = sym::fmax(r, a[i]);
  return r;
}

const std::vector<FunctionInfo>& functions() {
  static const std::vector<FunctionInfo> table = {
      {"sin", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::sin(a[0]); }},
      {"cos", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::cos(a[0]); }},
      {"tan", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::tan(a[0]); }},
      {"asin", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::asin(a[0]); }},
      {"acos", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::acos(a[0]); }},
      {"atan", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::atan(a[0]); }},
      {"atan2", 2, 2, [](const std::vector<sym::Expr>& a) { return sym::atan2(a[0], a[1]); }},
      {"sinh", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::sinh(a[0]); }},
      {"cosh", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::cosh(a[0]); }},
      {"tanh", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::tanh(a[0]); }},
      {"exp", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::exp(a[0]); }},
      {"log", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::log(a[0]); }},
      {"sqrt", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::sqrt(a[0]); }},
      {"abs", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::abs(a[0]); }},
      {"min", 2, -1, fold_min},
      {"max", 2, -1, fold_max},
      {"sign", 1, 1, [](const std::vector<sym::Expr>& a) { return sym::sign(a[0]); }},
  };
  return table;
}

const FunctionInfo* find_function(const std::string& name) {
  for (const auto& f : functions())
    if (name == f.name) return &f;
  return nullptr;
}

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The (possibly multi-byte UTF-8) character at text[pos], for messages; a hint for the look-alikes
// that arrive by copying formulas from papers.
std::string describe_character(const std::string& text, std::size_t pos, std::string* hint) {
  const auto c = static_cast<unsigned char>(text[pos]);
  std::size_t len = 1;
  if (c >= 0xF0) {
    len = 4;
  } else if (c >= 0xE0) {
    len = 3;
  } else if (c >= 0xC0) {
    len = 2;
  }
  bool valid = pos + len <= text.size();
  for (std::size_t k = 1; valid && k < len; ++k)
    valid = (static_cast<unsigned char>(text[pos + k]) & 0xC0) == 0x80;
  if (c >= 0x80 && (!valid || c < 0xC0)) {
    static const char* hex = "0123456789abcdef";
    return std::string("byte \\x") + hex[c >> 4] + hex[c & 15];
  }
  if (c < 0x20 || c == 0x7F) {
    static const char* hex = "0123456789abcdef";
    return std::string("control character \\x") + hex[c >> 4] + hex[c & 15];
  }
  const std::string ch = text.substr(pos, len);
  if (hint) {
    if (ch == "\u2212" || ch == "\u2013") *hint = " (a Unicode dash; write '-')";
    if (ch == "\u00d7" || ch == "\u00b7" || ch == "\u22c5") *hint = " (write '*' for a product)";
    if (ch == "<" || ch == ">" || ch == "=" || ch == "!")
      *hint = " (comparisons belong only at the top level of a constraint)";
    if (ch == "&" || ch == "|") *hint = " (logical operators are not supported)";
  }
  return "character '" + ch + "'";
}

// The line of `text` holding `offset`, with a caret under it (windowed for very long lines).
std::string excerpt(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line_begin = 0;
  for (std::size_t k = 0; k < offset; ++k)
    if (text[k] == '\n') line_begin = k + 1;
  std::size_t line_end = text.find('\n', offset);
  if (line_end == std::string::npos) line_end = text.size();
  constexpr std::size_t kWindow = 60;
  std::size_t from = line_begin, to = line_end;
  if (offset - from > kWindow) from = offset - kWindow;
  if (to - offset > kWindow) to = offset + kWindow;
  std::string line = text.substr(from, to - from);
  std::string pad;
  for (std::size_t k = from; k < offset; ++k) pad += text[k] == '\t' ? '\t' : ' ';
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = ' ';
  return "\n    " + line + "\n    " + pad + "^";
}

enum class Tok {
  Number,
  Name,
  Plus,
  Minus,
  Star,
  Slash,
  Caret,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  End
};

struct Token {
  Tok kind = Tok::End;
  std::size_t pos = 0;
  std::size_t end = 0;
  double value = 0.0;
};

class Parser {
 public:
  Parser(const std::string& text, std::size_t begin, std::size_t end, const Scope& scope,
         const Locator& locate)
      : text_(text), end_(end), cursor_(begin), scope_(scope), locate_(locate) {}

  sym::Expr parse_all() {
    advance();
    if (tok_.kind == Tok::End) fail(tok_.pos, "empty expression, expected a number, a name or '('");
    sym::Expr e = expression();
    if (tok_.kind != Tok::End) {
      std::string what =
          "unexpected " + describe(tok_) + ", expected an operator or the end of the expression";
      if (tok_.kind == Tok::Name || tok_.kind == Tok::Number || tok_.kind == Tok::LParen)
        what += " (a product needs '*')";
      fail(tok_.pos, what);
    }
    return e;
  }

  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw Error(error_message(locate_(offset), message) + excerpt(text_, offset));
  }

 private:
  // Counts nesting so that "((((...", "----x" or "2^2^2^..." cannot exhaust the stack.
  class DepthGuard {
   public:
    DepthGuard(Parser& p, std::size_t pos) : p_(p) {
      if (++p_.depth_ > kMaxDepth)
        p_.fail(pos,
                "expression nested too deeply, expected at most " + std::to_string(kMaxDepth) + " levels");
    }
    ~DepthGuard() { --p_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser& p_;
  };

  std::string token_text(const Token& t) const { return text_.substr(t.pos, t.end - t.pos); }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Tok::End:
        return "end of expression";
      case Tok::Number:
        return "number '" + token_text(t) + "'";
      case Tok::Name:
        return "name '" + token_text(t) + "'";
      default:
        return "'" + token_text(t) + "'";
    }
  }

  void advance() {
    while (cursor_ < end_ && is_space(text_[cursor_])) ++cursor_;
    tok_ = Token{};
    tok_.pos = cursor_;
    if (cursor_ >= end_) {
      tok_.end = cursor_;
      return;
    }
    const char c = text_[cursor_];
    if (is_digit(c) || (c == '.' && cursor_ + 1 < end_ && is_digit(text_[cursor_ + 1]))) {
      lex_number();
      return;
    }
    if (is_name_start(c)) {
      std::size_t j = cursor_;
      while (j < end_ && is_name_char(text_[j])) ++j;
      tok_.kind = Tok::Name;
      tok_.end = cursor_ = j;
      return;
    }
    Tok kind = Tok::End;
    switch (c) {
      case '+':
        kind = Tok::Plus;
        break;
      case '-':
        kind = Tok::Minus;
        break;
      case '*':
        kind = Tok::Star;
        break;
      case '/':
        kind = Tok::Slash;
        break;
      case '^':
        kind = Tok::Caret;
        break;
      case '(':
        kind = Tok::LParen;
        break;
      case ')':
        kind = Tok::RParen;
        break;
      case '[':
        kind = Tok::LBracket;
        break;
      case ']':
        kind = Tok::RBracket;
        break;
      case ',':
        kind = Tok::Comma;
        break;
      default: {
        std::string hint;
        const std::string what = describe_character(text_, cursor_, &hint);
        fail(cursor_,
             "unexpected " + what + hint + ", expected a number, a name, an operator or a parenthesis");
      }
    }
    if (kind == Tok::Star && cursor_ + 1 < end_ && text_[cursor_ + 1] == '*')
      fail(cursor_, "'**' is not an operator, expected '^' for a power");
    tok_.kind = kind;
    tok_.end = ++cursor_;
  }

  void lex_number() {
    const std::size_t start = cursor_;
    std::size_t j = cursor_;
    while (j < end_ && is_digit(text_[j])) ++j;
    if (j < end_ && text_[j] == '.') {
      ++j;
      while (j < end_ && is_digit(text_[j])) ++j;
    }
    if (j < end_ && (text_[j] == 'e' || text_[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < end_ && (text_[k] == '+' || text_[k] == '-')) ++k;
      if (k < end_ && is_digit(text_[k])) {
        while (k < end_ && is_digit(text_[k])) ++k;
        j = k;
      } else {
        fail(k, "malformed number '" + text_.substr(start, k - start) + "', expected digits in the exponent");
      }
    }
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + j, value);
    if (ec == std::errc::result_out_of_range) {
      // Underflow is harmless (the value is 0 or subnormal); overflow is a typo.
      bool negative_exponent = false;
      for (std::size_t k = start; k < j; ++k)
        if ((text_[k] == 'e' || text_[k] == 'E') && k + 1 < j && text_[k + 1] == '-')
          negative_exponent = true;
      if (!negative_exponent)
        fail(start, "number '" + text_.substr(start, j - start) + "' is too large, expected at most 1.8e308");
      value = 0.0;
    } else if (ec != std::errc() || ptr != text_.data() + j) {
      fail(start, "malformed number '" + text_.substr(start, j - start) + "'");
    }
    tok_.kind = Tok::Number;
    tok_.value = value;
    tok_.end = cursor_ = j;
  }

  void expect(Tok kind, const std::string& expected) {
    if (tok_.kind != kind) fail(tok_.pos, "unexpected " + describe(tok_) + ", expected " + expected);
    advance();
  }

  sym::Expr expression() {
    sym::Expr e = term();
    while (tok_.kind == Tok::Plus || tok_.kind == Tok::Minus) {
      const bool plus = tok_.kind == Tok::Plus;
      advance();
      const sym::Expr rhs = term();
      e = plus ? e + rhs : e - rhs;
    }
    return e;
  }

  sym::Expr term() {
    sym::Expr e = unary();
    while (tok_.kind == Tok::Star || tok_.kind == Tok::Slash) {
      const bool times = tok_.kind == Tok::Star;
      advance();
      const sym::Expr rhs = unary();
      e = times ? e * rhs : e / rhs;
    }
    return e;
  }

  sym::Expr unary() {
    DepthGuard guard(*this, tok_.pos);
    if (tok_.kind == Tok::Minus) {
      advance();
      return -unary();
    }
    if (tok_.kind == Tok::Plus) {
      advance();
      return unary();
    }
    sym::Expr base = primary();
    if (tok_.kind != Tok::Caret) return base;
    advance();
    return sym::pow(base, unary());
  }

  sym::Expr primary() {
    switch (tok_.kind) {
      case Tok::Number: {
        const double v = tok_.value;
        advance();
        return sym::Expr(v);
      }
      case Tok::LParen: {
        const std::size_t open = tok_.pos;
        advance();
        sym::Expr e = expression();
        if (tok_.kind != Tok::RParen)
          fail(tok_.pos, "unexpected " + describe(tok_) + ", expected ')' to close the '(' at column " +
                             std::to_string(locate_(open).column));
        advance();
        return e;
      }
      case Tok::Name:
        return name();
      default:
        fail(tok_.pos, "unexpected " + describe(tok_) + ", expected a number, a name or '('");
    }
  }

  sym::Expr name() {
    const std::string id = token_text(tok_);
    const std::size_t pos = tok_.pos;
    advance();
    if (tok_.kind == Tok::LParen) return call(id, pos);
    if (find_function(id))
      fail(tok_.pos, "unexpected " + describe(tok_) + ", expected '(' after the function '" + id + "'");
    if (tok_.kind == Tok::LBracket) return index(id, pos);
    if (id == "pi") return sym::Expr(std::numbers::pi);
    if (id == "inf") return sym::Expr(kInf);
    if (const sym::Expr* e = scope_.find(id)) return *e;
    if (const sym::Vector* v = scope_.find_vector(id))
      fail(pos, "'" + id + "' is a vector of length " + std::to_string(v->size()) +
                    ", expected an index: " + id + "[0]" +
                    (v->size() > 1 ? " ... " + id + "[" + std::to_string(v->size() - 1) + "]" : ""));
    unknown_name(id, pos);
  }

  [[noreturn]] void unknown_name(const std::string& id, std::size_t pos) const {
    std::vector<std::string> candidates = scope_.names();
    candidates.push_back("pi");
    std::string message = "unknown name '" + id + "'";
    const std::string suggestion = did_you_mean(id, candidates);
    if (!suggestion.empty()) {
      message += suggestion;
    } else if (scope_.names().empty()) {
      message += ", expected a number (nothing is declared here)";
    } else if (scope_.names().size() <= 12) {
      message += ", expected one of:";
      for (const auto& n : scope_.names()) message += " " + n;
    } else {
      message += ", expected a declared name";
    }
    fail(pos, message);
  }

  sym::Expr call(const std::string& id, std::size_t pos) {
    const FunctionInfo* f = find_function(id);
    if (!f) {
      if (scope_.contains(id))
        fail(tok_.pos,
             "'" + id + "' is not a function, expected an operator before '(' (a product needs '*')");
      std::string message =
          "unknown function '" + id + "'" + did_you_mean(id, function_names()) + ", expected one of:";
      for (const auto& n : function_names()) message += " " + n;
      fail(pos, message);
    }
    DepthGuard guard(*this, tok_.pos);
    advance();  // '('
    std::vector<sym::Expr> args;
    if (tok_.kind != Tok::RParen) {
      args.push_back(expression());
      while (tok_.kind == Tok::Comma) {
        advance();
        args.push_back(expression());
      }
    }
    expect(Tok::RParen, "',' or ')' in the arguments of '" + id + "'");
    const int n = static_cast<int>(args.size());
    if (n < f->min_args || (f->max_args >= 0 && n > f->max_args)) {
      std::string expected;
      if (f->max_args < 0) {
        expected = std::to_string(f->min_args) + " or more";
      } else {
        expected = std::to_string(f->min_args);
      }
      fail(pos,
           "wrong number of arguments for '" + id + "': got " + std::to_string(n) + ", expected " + expected);
    }
    return f->build(args);
  }

  sym::Expr index(const std::string& id, std::size_t pos) {
    const sym::Vector* v = scope_.find_vector(id);
    if (!v) {
      if (scope_.contains(id) || id == "pi" || id == "inf")
        fail(tok_.pos, "'" + id + "' is a scalar and cannot be indexed, expected an operator");
      unknown_name(id, pos);
    }
    DepthGuard guard(*this, tok_.pos);
    advance();  // '['
    const std::size_t index_pos = tok_.pos;
    const sym::Expr i = expression();
    expect(Tok::RBracket, "']' to close the index of '" + id + "'");
    if (!i.is_constant())
      fail(index_pos, "the index of '" + id + "' depends on a variable, expected a constant integer");
    const double value = i.constant_value();
    if (!(value == std::floor(value)))
      fail(index_pos, "the index of '" + id + "' is " + sym::Expr(value).str() + ", expected an integer");
    if (value < 0 || value >= static_cast<double>(v->size()))
      fail(index_pos, "index " + sym::Expr(value).str() + " is out of range for '" + id + "' of length " +
                          std::to_string(v->size()) + ", expected 0 to " + std::to_string(v->size()) +
                          " - 1");
    return (*v)[static_cast<std::size_t>(value)];
  }

  const std::string& text_;
  std::size_t end_;
  std::size_t cursor_;
  const Scope& scope_;
  const Locator& locate_;
  Token tok_;
  int depth_ = 0;
};

std::size_t skip_space(const std::string& text, std::size_t pos, std::size_t end) {
  while (pos < end && is_space(text[pos])) ++pos;
  return pos;
}

}  // namespace

std::string to_string(const SourceLocation& where) {
  std::string s = where.file;
  if (where.line > 0) {
    s += ":" + std::to_string(where.line);
    if (where.column > 0) s += ":" + std::to_string(where.column);
  }
  return s;
}

std::string error_message(const SourceLocation& where, const std::string& message) {
  return to_string(where) + ": error: " + message;
}

Locator text_locator(const std::string& text, const SourceLocation& where) {
  return [text, where](std::size_t offset) {
    SourceLocation loc = where;
    if (where.line <= 0) return loc;
    offset = std::min(offset, text.size());
    std::size_t line_start = 0;
    int lines = 0;
    for (std::size_t k = 0; k < offset; ++k) {
      if (text[k] == '\n') {
        ++lines;
        line_start = k + 1;
      }
    }
    loc.line = where.line + lines;
    if (lines == 0) {
      loc.column = where.column > 0 ? where.column + static_cast<int>(offset) : 0;
    } else {
      loc.column = static_cast<int>(offset - line_start) + 1;
    }
    return loc;
  };
}

// ---- Scope ----

void Scope::check_new_name(const std::string& name) const {
  if (!is_identifier(name))
    throw Error("'" + name +
                "' is not a valid name, expected letters, digits and '_', not starting with a digit");
  if (is_reserved_name(name))
    throw Error("'" + name + "' is reserved (a function or constant), expected another name");
  if (contains(name)) throw Error("'" + name + "' is already defined");
}

void Scope::define(const std::string& name, sym::Expr value) {
  check_new_name(name);
  scalars_.emplace(name, value);
  order_.push_back(name);
}

void Scope::define_vector(const std::string& name, sym::Vector values) {
  check_new_name(name);
  vectors_.emplace(name, std::move(values));
  order_.push_back(name);
}

bool Scope::contains(const std::string& name) const {
  return scalars_.count(name) > 0 || vectors_.count(name) > 0;
}

const sym::Expr* Scope::find(const std::string& name) const {
  const auto it = scalars_.find(name);
  return it == scalars_.end() ? nullptr : &it->second;
}

const sym::Vector* Scope::find_vector(const std::string& name) const {
  const auto it = vectors_.find(name);
  return it == vectors_.end() ? nullptr : &it->second;
}

// ---- names ----

bool is_identifier(const std::string& name) {
  if (name.empty() || !is_name_start(name[0])) return false;
  return std::all_of(name.begin(), name.end(), is_name_char);
}

bool is_reserved_name(const std::string& name) {
  return name == "pi" || name == "inf" || find_function(name) != nullptr;
}

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : functions()) n.emplace_back(f.name);
    return n;
  }();
  return names;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& c : candidates) {
    if (c == name) continue;
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance && d < name.size() && d < c.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string best = closest_name(name, candidates);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

// ---- parsing ----

sym::Expr parse_expression(const std::string& text, const Scope& scope, const SourceLocation& where) {
  return parse_expression(text, 0, text.size(), scope, text_locator(text, where));
}

sym::Expr parse_expression(const std::string& text, const Scope& scope, const Locator& locate) {
  return parse_expression(text, 0, text.size(), scope, locate);
}

sym::Expr parse_expression(const std::string& text, std::size_t begin, std::size_t end, const Scope& scope,
                           const Locator& locate) {
  end = std::min(end, text.size());
  begin = std::min(begin, end);
  return Parser(text, begin, end, scope, locate).parse_all();
}

Relation parse_relation(const std::string& text, const Scope& scope, const Locator& locate) {
  enum class Cmp { Le, Ge, Eq };
  struct Found {
    Cmp cmp;
    std::size_t pos, len;
  };
  const auto fail = [&](std::size_t offset, const std::string& message) {
    throw Error(error_message(locate(offset), message) + excerpt(text, offset));
  };

  // Split at the comparisons outside parentheses and brackets; anything malformed inside an
  // operand is left to the expression parser, which reports it in place.
  std::vector<Found> found;
  int depth = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    const char next = k + 1 < text.size() ? text[k + 1] : '\0';
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth != 0) continue;
    if (c == '<' || c == '>') {
      if (next != '=')
        fail(k, std::string("strict comparison '") + c + "' is not supported, expected '" + c + "='");
      found.push_back({c == '<' ? Cmp::Le : Cmp::Ge, k, 2});
      ++k;
    } else if (c == '=') {
      if (next != '=') fail(k, "'=' is not a comparison, expected '=='");
      found.push_back({Cmp::Eq, k, 2});
      ++k;
    } else if (c == '!' && next == '=') {
      fail(k, "'!=' cannot be a constraint, expected '<=', '>=' or '=='");
    }
  }

  if (found.empty())
    fail(skip_space(text, 0, text.size()),
         "missing comparison, expected a constraint like 'a <= b', 'a >= b' or 'a == b'");
  if (found.size() > 2) fail(found[2].pos, "too many comparisons, expected at most two (lo <= expr <= hi)");

  const auto parse_part = [&](std::size_t begin, std::size_t end) {
    return parse_expression(text, begin, end, scope, locate);
  };
  const double inf = kInf;
  Relation r;

  if (found.size() == 2) {
    const Found& a = found[0];
    const Found& b = found[1];
    if (a.cmp != b.cmp || a.cmp == Cmp::Eq)
      fail(b.pos, "a chained comparison mixes '" + text.substr(a.pos, 2) + "' and '" + text.substr(b.pos, 2) +
                      "', expected 'lo <= expr <= hi' or 'hi >= expr >= lo'");
    const sym::Expr first = parse_part(0, a.pos);
    const sym::Expr middle = parse_part(a.pos + 2, b.pos);
    const sym::Expr last = parse_part(b.pos + 2, text.size());
    if (!first.is_constant())
      fail(skip_space(text, 0, a.pos),
           "the ends of a chained comparison must be constants, expected a number or "
           "an expression of parameters");
    if (!last.is_constant())
      fail(skip_space(text, b.pos + 2, text.size()),
           "the ends of a chained comparison must be constants, expected a number or an expression of "
           "parameters");
    if (middle.is_constant())
      fail(skip_space(text, a.pos + 2, b.pos),
           "the middle of a chained comparison is a constant, expected an "
           "expression of the variables");
    r.expr = middle;
    r.lower = a.cmp == Cmp::Le ? first.constant_value() : last.constant_value();
    r.upper = a.cmp == Cmp::Le ? last.constant_value() : first.constant_value();
  } else {
    const Found& f = found[0];
    const sym::Expr lhs = parse_part(0, f.pos);
    const sym::Expr rhs = parse_part(f.pos + 2, text.size());
    const bool lc = lhs.is_constant();
    const bool rc = rhs.is_constant();
    if (lc && rc)
      fail(skip_space(text, 0, f.pos),
           "the constraint compares two constants, expected an expression of the "
           "variables on one side");
    if (rc || lc) {
      // Keep the non-constant side alone; the constant becomes a bound.
      r.expr = rc ? lhs : rhs;
      const double bound = rc ? rhs.constant_value() : lhs.constant_value();
      // Normalize to "expr <cmp> bound".
      Cmp cmp = f.cmp;
      if (lc && cmp != Cmp::Eq) cmp = cmp == Cmp::Le ? Cmp::Ge : Cmp::Le;
      r.lower = cmp == Cmp::Le ? -inf : bound;
      r.upper = cmp == Cmp::Ge ? inf : bound;
    } else {
      r.expr = lhs - rhs;
      if (r.expr.is_constant())
        fail(skip_space(text, 0, f.pos),
             "the constraint is constant after simplification, expected an expression "
             "of the variables");
      r.lower = f.cmp == Cmp::Le ? -inf : 0.0;
      r.upper = f.cmp == Cmp::Ge ? inf : 0.0;
    }
  }
  if (std::isnan(r.lower) || std::isnan(r.upper))
    fail(skip_space(text, 0, text.size()), "a bound of the constraint is not a number (nan)");
  return r;
}

}  // namespace stasis::io
