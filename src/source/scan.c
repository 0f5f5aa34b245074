/* scan.c — find the __global__ kernels of a CUDA source (see scan.h).
 *
 * Two passes. The lexer turns the bytes into tokens and drops everything that can never
 * declare a kernel: comments, preprocessor lines (with their continuations) and the insides
 * of string, raw-string and character literals, which become single opaque tokens. The
 * declaration pass then walks the tokens keeping only the structure that names a kernel:
 * the brace scopes (namespaces, extern "C" blocks) and where the current declaration began
 * (after the last `;`, `{` or `}`). Each `__global__` sends it back to that beginning to read
 * the declaration head: prefixes, name, parameter list, and whether a body follows.
 *
 * Nothing is recursive and every bracket match gives up at a `;` or a closer of the wrong
 * kind, so malformed input costs at most a skipped declaration, never a crash. */
#include "source/scan.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/body_writes.h"
#include "util/strbuf.h"
#include "static/symbols.h"
#include "util/xalloc.h"

#define NONE SIZE_MAX

/* Synthetic items that stand for tokens the source never spelt: an array parameter
 * `float x[][4]` is described as the pointer it decays to, `float (*)[4]`. */
#define ITEM_STAR (SIZE_MAX - 1)
#define ITEM_LPAREN (SIZE_MAX - 2)
#define ITEM_RPAREN (SIZE_MAX - 3)

typedef enum tok_kind { TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_CHAR, TOK_PUNCT, TOK_SCOPE } tok_kind;

typedef struct token {
    tok_kind kind;
    size_t off, len;
    int line;
    size_t match; /* openers ( [ { <: the token closing the group, or NONE */
} token;

typedef struct scope {
    char *ns_name; /* the namespace this brace opened ("a::b" for `namespace a::b {`), or NULL */
    bool extern_c; /* declarations inside have C linkage */
} scope;

typedef struct scanner {
    const char *text;
    size_t len;
    token *toks;
    size_t ntoks, tok_cap;
    scope *scopes;
    size_t nscopes, scope_cap;
    kd_kernel *kernels;
    bool *defined; /* parallel to kernels: a body has been seen, not just a prototype */
    size_t nkernels, kernel_cap;
    size_t *bodies; /* byte offsets of the `{` of every __global__ definition, in order */
    size_t nbodies, body_cap;
    bool macro_kernels; /* a directive mentions __global__ */
    kd_strbuf directives; /* the text of every preprocessor line, one a line */
    kd_directive_fn *on_directive; /* kd_scan_tokens' caller hears each directive, or NULL */
    void *directive_ctx;
} scanner;

/* ------------------------------------------------------------------ memory helpers */

/* Grows *arr (of *cap elements of `size` bytes) to hold at least `need`. */
static void grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t cap_new = *cap ? *cap : 16;
    while (cap_new < need)
        cap_new *= 2;
    *arr = kd_xreallocarray(*arr, cap_new, size);
    *cap = cap_new;
}

static void swap_str(char **a, char **b)
{
    char *t = *a;
    *a = *b;
    *b = t;
}

/* ------------------------------------------------------------------ lexer */

typedef struct lexer {
    const char *s;
    size_t len, pos;
} lexer;

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Bytes >= 0x80 are accepted so UTF-8 identifiers stay whole. */
static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }

static bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool lx_peek(const lexer *lx, size_t ahead, char c)
{
    return lx->pos + ahead < lx->len && lx->s[lx->pos + ahead] == c;
}

/* Bytes taken by a backslash-newline at `pos` (0 if there is none): such a splice joins two
 * physical lines into one logical line, so it must not end a comment or a directive. */
static size_t splice_len(const lexer *lx, size_t pos)
{
    if (pos >= lx->len || lx->s[pos] != '\\')
        return 0;
    if (pos + 1 < lx->len && lx->s[pos + 1] == '\n')
        return 2;
    if (pos + 2 < lx->len && lx->s[pos + 1] == '\r' && lx->s[pos + 2] == '\n')
        return 3;
    return 0;
}

/* Stops on the newline, leaving it for the caller, which treats it as a line start. */
static void skip_line_comment(lexer *lx)
{
    lx->pos += 2;
    while (lx->pos < lx->len && lx->s[lx->pos] != '\n') {
        size_t splice = splice_len(lx, lx->pos);
        lx->pos += splice ? splice : 1;
    }
}

static void skip_block_comment(lexer *lx)
{
    lx->pos += 2;
    while (lx->pos + 1 < lx->len) {
        if (lx->s[lx->pos] == '*' && lx->s[lx->pos + 1] == '/') {
            lx->pos += 2;
            return;
        }
        lx->pos++;
    }
    lx->pos = lx->len; /* unterminated: the comment runs to the end of the input */
}

/* A "..." or '...' literal from its opening quote. An unterminated literal ends at the
 * newline (left unconsumed), as compilers recover, so one stray quote cannot hide the rest
 * of the file. */
static void skip_quoted(lexer *lx, char quote)
{
    lx->pos++;
    while (lx->pos < lx->len) {
        char c = lx->s[lx->pos];
        if (c == '\\') {
            size_t splice = splice_len(lx, lx->pos);
            lx->pos += splice ? splice : 2;
            continue;
        }
        if (c == '\n')
            return;
        lx->pos++;
        if (c == quote)
            return;
    }
    lx->pos = lx->len; /* a trailing backslash may have stepped past the end */
}

/* R"delim( ... )delim" from its opening quote. Returns false, consuming nothing, when no
 * valid delimiter follows: the caller then reads an ordinary string. */
static bool skip_raw_string(lexer *lx)
{
    size_t delim = lx->pos + 1, open = delim;
    while (open < lx->len && open - delim <= 16 && lx->s[open] != '(') {
        char c = lx->s[open];
        if (c == ' ' || c == ')' || c == '\\' || c == '"' || c == '\t' || c == '\v' ||
            c == '\f' || c == '\n' || c == '\r')
            return false;
        open++;
    }
    if (open >= lx->len || open - delim > 16)
        return false;
    size_t dlen = open - delim;
    for (size_t p = open + 1; p < lx->len; p++) {
        if (lx->s[p] == ')' && p + dlen + 1 < lx->len &&
            memcmp(lx->s + p + 1, lx->s + delim, dlen) == 0 && lx->s[p + 1 + dlen] == '"') {
            lx->pos = p + dlen + 2;
            return true;
        }
    }
    lx->pos = lx->len;
    return true;
}

/* A directive runs to the first newline that is not spliced; comments inside it may span
 * lines, and its quotes are honoured so a quoted comment opener opens no comment. */
static void skip_directive(lexer *lx)
{
    while (lx->pos < lx->len) {
        size_t splice = splice_len(lx, lx->pos);
        char c = lx->s[lx->pos];
        if (splice)
            lx->pos += splice;
        else if (c == '\n')
            return;
        else if (c == '/' && lx_peek(lx, 1, '*'))
            skip_block_comment(lx);
        else if (c == '/' && lx_peek(lx, 1, '/'))
            skip_line_comment(lx);
        else if (c == '"' || c == '\'')
            skip_quoted(lx, c);
        else
            lx->pos++;
    }
}

/* pp-number: also takes digit separators (1'000) so their quote opens no char literal. */
static void skip_number(lexer *lx)
{
    lx->pos++;
    while (lx->pos < lx->len) {
        unsigned char c = (unsigned char)lx->s[lx->pos];
        unsigned char prev = (unsigned char)lx->s[lx->pos - 1];
        if (is_ident_char(c) || c == '.')
            lx->pos++;
        else if ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))
            lx->pos++;
        else if (c == '\'' && lx->pos + 1 < lx->len && is_ident_char((unsigned char)lx->s[lx->pos + 1]))
            lx->pos += 2;
        else
            break;
    }
}

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(*list, w, n) == 0)
            return true;
    return false;
}

/* An identifier, or a literal with an encoding/raw prefix (u8"...", LR"(...)", U'x'). */
static tok_kind lex_word(lexer *lx)
{
    static const char *const raw_prefixes[] = {"R", "u8R", "uR", "UR", "LR", NULL};
    static const char *const enc_prefixes[] = {"L", "u", "U", "u8", NULL};
    size_t start = lx->pos;
    while (lx->pos < lx->len && is_ident_char((unsigned char)lx->s[lx->pos]))
        lx->pos++;
    const char *w = lx->s + start;
    size_t n = lx->pos - start;
    bool raw = word_in(w, n, raw_prefixes), enc = word_in(w, n, enc_prefixes);
    if (lx_peek(lx, 0, '"') && (raw || enc)) {
        if (!raw || !skip_raw_string(lx))
            skip_quoted(lx, '"');
        return TOK_STRING;
    }
    if (lx_peek(lx, 0, '\'') && enc) {
        skip_quoted(lx, '\'');
        return TOK_CHAR;
    }
    return TOK_IDENT;
}

static void push_token(scanner *sc, tok_kind kind, size_t off, size_t len)
{
    grow((void **)&sc->toks, &sc->tok_cap, sc->ntoks + 1, sizeof *sc->toks);
    sc->toks[sc->ntoks++] = (token){kind, off, len, 0, NONE};
}

/* Lines are counted afterwards in one pass over the text, so no skipping routine above has
 * to remember to count the newlines it steps over. */
static void number_lines(scanner *sc)
{
    int line = 1;
    size_t pos = 0;
    for (size_t i = 0; i < sc->ntoks; i++) {
        for (; pos < sc->toks[i].off; pos++)
            if (sc->text[pos] == '\n' && line < INT_MAX)
                line++;
        sc->toks[i].line = line;
    }
}

/* Keeps a directive's text as one line (splices and comments' newlines made blanks), for
 * the body walk's question whether a macro names a parameter (source/body_writes.h). */
static void keep_directive(scanner *sc, size_t start, size_t end)
{
    for (size_t i = start; i < end; i++) {
        char c = sc->text[i];
        kd_sb_append(&sc->directives, c == '\n' || c == '\r' || c == '\\' ? " " : &c, 1);
    }
    kd_sb_append(&sc->directives, "\n", 1);
}

static void lex(scanner *sc)
{
    lexer lx = {sc->text, sc->len, 0};
    bool line_start = true; /* only blanks and comments since the last newline */
    while (lx.pos < lx.len) {
        unsigned char c = (unsigned char)lx.s[lx.pos];
        size_t splice = splice_len(&lx, lx.pos);
        if (splice) {
            lx.pos += splice;
            continue;
        }
        if (c == '\n') {
            line_start = true;
            lx.pos++;
            continue;
        }
        if (is_blank(c)) {
            lx.pos++;
            continue;
        }
        if (c == '/' && lx_peek(&lx, 1, '/')) {
            skip_line_comment(&lx);
            continue;
        }
        if (c == '/' && lx_peek(&lx, 1, '*')) {
            skip_block_comment(&lx);
            continue;
        }
        bool directive = c == '#' && line_start;
        line_start = false;
        if (directive) {
            size_t start = lx.pos;
            skip_directive(&lx);
            sc->macro_kernels |= memmem(lx.s + start, lx.pos - start, "__global__", 10) != NULL;
            keep_directive(sc, start, lx.pos);
            if (sc->on_directive)
                sc->on_directive(sc->directive_ctx, lx.s + start, lx.s + lx.pos);
            continue;
        }
        size_t start = lx.pos;
        tok_kind kind = TOK_PUNCT;
        if (is_ident_start(c)) {
            kind = lex_word(&lx);
        } else if (is_digit(c) || (c == '.' && lx.pos + 1 < lx.len && is_digit((unsigned char)lx.s[lx.pos + 1]))) {
            skip_number(&lx);
            kind = TOK_NUMBER;
        } else if (c == '"' || c == '\'') {
            skip_quoted(&lx, (char)c);
            kind = c == '"' ? TOK_STRING : TOK_CHAR;
        } else if (c == ':' && lx_peek(&lx, 1, ':')) {
            lx.pos += 2;
            kind = TOK_SCOPE;
        } else {
            lx.pos++; /* every other punctuator is one byte: `>>` must stay two closers */
        }
        push_token(sc, kind, start, lx.pos - start);
    }
    number_lines(sc);
}

size_t kd_scan_tokens(const char *text, size_t len, kd_src_token **out, kd_directive_fn *on_directive, void *ctx)
{
    static const kd_src_token_kind kinds[] = {
        [TOK_IDENT] = KD_SRC_IDENT, [TOK_NUMBER] = KD_SRC_NUMBER, [TOK_STRING] = KD_SRC_STRING,
        [TOK_CHAR] = KD_SRC_CHAR,   [TOK_PUNCT] = KD_SRC_PUNCT,   [TOK_SCOPE] = KD_SRC_PUNCT,
    };
    scanner sc = {.text = text, .len = len, .on_directive = on_directive, .directive_ctx = ctx};
    lex(&sc);
    *out = sc.ntoks ? kd_xcalloc(sc.ntoks, sizeof **out) : NULL;
    for (size_t i = 0; i < sc.ntoks; i++)
        (*out)[i] = (kd_src_token){kinds[sc.toks[i].kind], sc.toks[i].off, sc.toks[i].len, sc.toks[i].line};
    free(sc.toks);
    kd_sb_free(&sc.directives);
    return sc.ntoks;
}

/* ------------------------------------------------------------------ token queries */

static const char *tok_text(const scanner *sc, size_t i) { return sc->text + sc->toks[i].off; }

static bool tok_kind_is(const scanner *sc, size_t i, tok_kind kind)
{
    return i < sc->ntoks && sc->toks[i].kind == kind;
}

static bool tok_is(const scanner *sc, size_t i, const char *word)
{
    return tok_kind_is(sc, i, TOK_IDENT) && sc->toks[i].len == strlen(word) &&
           memcmp(tok_text(sc, i), word, sc->toks[i].len) == 0;
}

static bool tok_punct(const scanner *sc, size_t i, char c)
{
    return tok_kind_is(sc, i, TOK_PUNCT) && tok_text(sc, i)[0] == c;
}

static bool tok_in(const scanner *sc, size_t i, const char *const *list)
{
    return tok_kind_is(sc, i, TOK_IDENT) && word_in(tok_text(sc, i), sc->toks[i].len, list);
}

static const char *const qualifier_words[] = {
    "const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__", NULL};

/* Words that can be neither a kernel's nor a parameter's name. */
static const char *const reserved_words[] = {
    "const", "volatile", "__restrict__", "__restrict", "restrict", "__grid_constant__",
    "register", "static", "inline", "extern", "void", "bool", "_Bool", "char", "wchar_t",
    "char8_t", "char16_t", "char32_t", "short", "int", "long", "signed", "unsigned", "float",
    "double", "__int128", "auto", "struct", "class", "union", "enum", "typename", "template",
    "return", "if", "while", "for", "switch", "sizeof", "alignof", "decltype", "typeof",
    "__typeof__", "noexcept", "throw", "operator", "new", "delete", "__global__", "__device__",
    "__host__", NULL};

/* Introduce the type name that follows them (`struct S`), so that name is no declarator. */
static const char *const class_keys[] = {"struct", "class", "union", "enum", "typename", NULL};

/* Attribute-like words whose parenthesised argument is part of no declarator. */
static const char *const group_attributes[] = {
    "__attribute__", "__declspec", "alignas", "_Alignas", "__align__", "__launch_bounds__",
    "__maxnreg__", "__cluster_dims__", "decltype", "__typeof__", "typeof", NULL};

/* Attributes a parameter may carry that describe no part of its type. */
static const char *const param_attributes[] = {
    "__attribute__", "__declspec", "alignas", "_Alignas", "__align__", NULL};

/* What may follow a parameter list; any other identifier after `X(...)` means X(...) was a
 * macro standing for an attribute (`__global__ void LAUNCH(128) k(...)`). */
static const char *const after_params[] = {
    "const", "volatile", "noexcept", "throw", "override", "final", "requires", "try",
    "__attribute__", "mutable", NULL};

static bool is_opener(char c) { return c == '(' || c == '[' || c == '{'; }
static bool is_closer(char c) { return c == ')' || c == ']' || c == '}'; }

static char closer_of(char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; }

/* Pairs every ( [ { with its closer and every `<` that can be a template angle with its
 * `>`, in one pass with a stack, so that no later question about a group rescans tokens
 * (a rescan per `<` is quadratic on `a<b<c<...`). The rules:
 *  - a `;` ends every open group: a declaration never spans one;
 *  - a closer closes the innermost bracket; a bracket closed by the wrong kind has no match;
 *  - a `<` still open when a brace or a closer arrives was a less-than, not an angle; so
 *    `<`/`>` inside ( ) pair among themselves, which makes `template <int N = (4>2)>` work;
 *  - a `>` with no `<` open since the innermost bracket is a greater-than. */
static void pair_brackets(scanner *sc)
{
    size_t *stack = kd_xmalloc(sc->ntoks * sizeof *stack);
    size_t depth = 0;
    for (size_t i = 0; i < sc->ntoks; i++) {
        if (sc->toks[i].kind != TOK_PUNCT)
            continue;
        char c = tok_text(sc, i)[0];
        bool angle_on_top = depth > 0 && tok_punct(sc, stack[depth - 1], '<');
        if (c == ';') {
            depth = 0;
        } else if (c == '<') {
            stack[depth++] = i;
        } else if (c == '>') {
            if (angle_on_top)
                sc->toks[stack[--depth]].match = i;
        } else if (c == '(' || c == '[') {
            stack[depth++] = i;
        } else if (c == '{' || is_closer(c)) {
            while (depth > 0 && tok_punct(sc, stack[depth - 1], '<'))
                depth--;
            if (c == '{') {
                stack[depth++] = i;
            } else if (depth > 0) {
                size_t open = stack[--depth];
                if (closer_of(tok_text(sc, open)[0]) == c)
                    sc->toks[open].match = i;
            }
        }
    }
    free(stack);
}

/* The token closing the group (bracket or angle) opened at `open`, if it lies before
 * `end`; NONE otherwise. */
static size_t match_group(const scanner *sc, size_t open, size_t end)
{
    size_t close = open < sc->ntoks ? sc->toks[open].match : NONE;
    return close < end ? close : NONE;
}

/* The last token of the nested group starting at `i` — a bracket group, or template
 * arguments after a name — or `i` itself when nothing nested starts there. */
static size_t skip_nested(const scanner *sc, size_t i, size_t end)
{
    bool bracket = tok_kind_is(sc, i, TOK_PUNCT) && is_opener(tok_text(sc, i)[0]);
    bool angle = tok_punct(sc, i, '<') && i > 0 && tok_kind_is(sc, i - 1, TOK_IDENT);
    size_t close = bracket || angle ? match_group(sc, i, end) : NONE;
    return close == NONE ? i : close;
}

/* ------------------------------------------------------------------ text of token runs */

/* An item is a token index or one of the ITEM_* stand-ins. */
static const char *item_text(const scanner *sc, size_t item, size_t *n)
{
    *n = 1;
    switch (item) {
    case ITEM_STAR:
        return "*";
    case ITEM_LPAREN:
        return "(";
    case ITEM_RPAREN:
        return ")";
    default:
        *n = sc->toks[item].len;
        return tok_text(sc, item);
    }
}

static bool item_punct(const scanner *sc, size_t item, char c)
{
    size_t n;
    const char *t = item_text(sc, item, &n);
    bool synthetic = item >= ITEM_RPAREN;
    return (synthetic || sc->toks[item].kind == TOK_PUNCT) && t[0] == c;
}

static bool item_is_word(const scanner *sc, size_t item)
{
    if (item >= ITEM_RPAREN)
        return false;
    tok_kind k = sc->toks[item].kind;
    return k == TOK_IDENT || k == TOK_NUMBER || k == TOK_STRING || k == TOK_CHAR;
}

static bool item_is_scope(const scanner *sc, size_t item)
{
    return item < ITEM_RPAREN && sc->toks[item].kind == TOK_SCOPE;
}

/* One canonical spelling for types and template arguments, so `const float*__restrict__`
 * and `const float * __restrict__` compare equal: words are separated by one space, `*`
 * and `&` bind to what follows them ("const float *__restrict__"), nothing pads brackets or
 * `::`, a comma is followed by one space. */
static bool space_between(const scanner *sc, size_t prev, size_t cur, size_t next)
{
    if (item_is_scope(sc, prev) || item_is_scope(sc, cur))
        return false;
    if (item_punct(sc, cur, ',') || item_punct(sc, cur, ')') || item_punct(sc, cur, ']') ||
        item_punct(sc, cur, '>'))
        return false;
    if (item_punct(sc, prev, '(') || item_punct(sc, prev, '[') || item_punct(sc, prev, '<'))
        return false;
    if (item_punct(sc, prev, '*') || item_punct(sc, prev, '&'))
        return false;
    if (item_punct(sc, cur, '*') || item_punct(sc, cur, '&'))
        return true;
    if (item_punct(sc, cur, '('))
        return next != NONE && (item_punct(sc, next, '*') || item_punct(sc, next, '&'));
    if (item_punct(sc, prev, ','))
        return true;
    bool prev_closes = item_punct(sc, prev, '>') || item_punct(sc, prev, ')');
    return item_is_word(sc, cur) && (item_is_word(sc, prev) || prev_closes);
}

static char *canonical_items(scanner *sc, const size_t *items, size_t n)
{
    kd_strbuf b = {0};
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && space_between(sc, items[k - 1], items[k], k + 1 < n ? items[k + 1] : NONE))
            kd_sb_append(&b, " ", 1);
        size_t len;
        const char *t = item_text(sc, items[k], &len);
        kd_sb_append(&b, t, len);
    }
    return kd_sb_take(&b);
}

static char *canonical_range(scanner *sc, size_t a, size_t b)
{
    size_t n = b > a ? b - a : 0;
    size_t *items = kd_xmalloc(n * sizeof *items);
    for (size_t k = 0; k < n; k++)
        items[k] = a + k;
    char *s = canonical_items(sc, items, n);
    free(items);
    return s;
}

/* Tokens a..b as written, with every run of whitespace or comments between two tokens
 * shown as one space: right for expressions (defaults, bounds, template parameters),
 * whose operators a canonical spacing would only make worse. */
static char *source_range(scanner *sc, size_t a, size_t b)
{
    kd_strbuf out = {0};
    for (size_t i = a; i < b; i++) {
        if (i > a && sc->toks[i].off > sc->toks[i - 1].off + sc->toks[i - 1].len)
            kd_sb_append(&out, " ", 1);
        kd_sb_append(&out, tok_text(sc, i), sc->toks[i].len);
    }
    return kd_sb_take(&out);
}

/* ------------------------------------------------------------------ parameters */

/* Position of the item closing the nested group that starts at items[k] (or k). Nested
 * groups are copied into the item list whole, so the close lies as far along the list as
 * it lies along the tokens. */
static size_t item_group_end(const scanner *sc, const size_t *items, size_t k, size_t n, size_t end)
{
    if (items[k] >= ITEM_RPAREN)
        return k;
    size_t close = skip_nested(sc, items[k], end);
    size_t pos = k + (close - items[k]);
    return pos < n && items[pos] == close ? pos : k;
}

/* The pointer/const facts of a parameter's type items (the name already removed). The
 * outermost pointer is the last top-level `*`; qualifiers after it belong to the pointer
 * itself, those between it and the previous `*` to the pointee. */
static void describe_pointer(scanner *sc, const size_t *items, size_t n, size_t end, kd_param *p)
{
    size_t star = NONE, prev_star = NONE;
    for (size_t k = 0; k < n; k = item_group_end(sc, items, k, n, end) + 1) {
        if (item_punct(sc, items[k], '*')) {
            prev_star = star;
            star = k;
        }
    }
    size_t seg_begin = prev_star == NONE ? 0 : prev_star + 1;
    size_t seg_end = star == NONE ? n : star;
    p->is_pointer = star != NONE;
    p->is_const = false;
    for (size_t k = seg_begin; k < seg_end; k++)
        if (items[k] < ITEM_RPAREN && tok_is(sc, items[k], "const"))
            p->is_const = true;
    if (!p->is_pointer)
        return;
    size_t *pointee = kd_xmalloc(star * sizeof *pointee);
    size_t m = 0;
    for (size_t k = 0; k < star; k++) {
        bool pointee_qualifier = k >= seg_begin && items[k] < ITEM_RPAREN &&
                                 tok_in(sc, items[k], qualifier_words);
        if (!pointee_qualifier)
            pointee[m++] = items[k];
    }
    p->pointee = canonical_items(sc, pointee, m);
    free(pointee);
}

/* `void (*fp)(int)`, `int (&arr)[4]`: the name sits inside the parenthesised declarator.
 * Only tolerated: the name is found, a pointer is flagged, and the pointee is the type with
 * the declarator group left out. */
static void describe_declarator_group(scanner *sc, const size_t *items, size_t n, size_t end,
                                      size_t group, kd_param *p)
{
    size_t group_end = item_group_end(sc, items, group, n, end);
    size_t name = NONE;
    for (size_t k = group + 1; k < group_end; k++)
        if (tok_kind_is(sc, items[k], TOK_IDENT) && !tok_in(sc, items[k], reserved_words))
            name = k;
    size_t *rest = kd_xmalloc(n * sizeof *rest);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (k != name)
            rest[m++] = items[k];
    p->name = name == NONE ? kd_xstrndup("", 0)
                           : kd_xstrndup(tok_text(sc, items[name]), sc->toks[items[name]].len);
    p->type = canonical_items(sc, rest, m);
    p->is_pointer = item_punct(sc, items[group + 1], '*');
    if (p->is_pointer) {
        m = 0;
        for (size_t k = 0; k < n; k++)
            if (k < group || k > group_end)
                rest[m++] = items[k];
        p->pointee = canonical_items(sc, rest, m);
    } else {
        /* A reference: a const before the group makes what it refers to const. */
        for (size_t k = 0; k < group; k++)
            p->is_const |= tok_is(sc, items[k], "const");
    }
    free(rest);
}

/* Whether items[k], an identifier at the end of the declarator, names the parameter rather
 * than finishing its type: `T x` names x, but `const T`, `struct S`, `ns::T` and `unsigned`
 * name nothing. */
static bool is_param_name(const scanner *sc, const size_t *items, size_t k)
{
    if (!tok_kind_is(sc, items[k], TOK_IDENT) || tok_in(sc, items[k], reserved_words))
        return false;
    if (k == 0 || item_is_scope(sc, items[k - 1]) || tok_in(sc, items[k - 1], class_keys))
        return false;
    for (size_t j = 0; j < k; j++)
        if (!tok_in(sc, items[j], qualifier_words))
            return true;
    return false;
}

/* Collects the declarator's tokens (a..b) without attributes, nested groups kept whole. */
static size_t collect_declarator(const scanner *sc, size_t a, size_t b, size_t *items)
{
    size_t n = 0;
    for (size_t i = a; i < b; i++) {
        bool attr_group = tok_in(sc, i, param_attributes) && tok_punct(sc, i + 1, '(');
        bool std_attr = tok_punct(sc, i, '[') && tok_punct(sc, i + 1, '[');
        if (attr_group || std_attr) {
            size_t close = match_group(sc, attr_group ? i + 1 : i, b);
            if (close != NONE) {
                i = close;
                continue;
            }
        }
        size_t close = skip_nested(sc, i, b);
        for (size_t j = i; j <= close; j++)
            items[n++] = j;
        i = close;
    }
    return n;
}

/* One parameter from tokens a..b (no surrounding commas). */
static void parse_param(scanner *sc, size_t a, size_t b, kd_param *p)
{
    size_t eq = b;
    for (size_t i = a; i < b; i = skip_nested(sc, i, b) + 1)
        if (tok_punct(sc, i, '=')) {
            eq = i;
            break;
        }
    if (eq + 1 < b)
        p->default_value = source_range(sc, eq + 1, b);

    size_t *items = kd_xmalloc((eq - a + 1) * sizeof *items);
    size_t n = collect_declarator(sc, a, eq, items);

    for (size_t k = 0; k + 1 < n; k = item_group_end(sc, items, k, n, eq) + 1) {
        bool declarator = item_punct(sc, items[k], '(') &&
                          (item_punct(sc, items[k + 1], '*') || item_punct(sc, items[k + 1], '&'));
        if (declarator) {
            describe_declarator_group(sc, items, n, eq, k, p);
            free(items);
            return;
        }
    }

    /* Array suffixes: the first decays to a pointer, further ones stay on the element. */
    size_t dims = n;
    for (size_t k = 0; k < n; k = item_group_end(sc, items, k, n, eq) + 1)
        if (item_punct(sc, items[k], '[')) {
            dims = k;
            break;
        }
    size_t extra_begin = dims < n ? item_group_end(sc, items, dims, n, eq) + 1 : n;

    size_t base = dims;
    if (base > 0 && is_param_name(sc, items, base - 1)) {
        size_t name = items[--base];
        p->name = kd_xstrndup(tok_text(sc, name), sc->toks[name].len);
    } else {
        p->name = kd_xstrndup("", 0);
    }

    /* The type: the element type, then the decayed array, written `*` or `(*)[4]`. */
    size_t extra = n - extra_begin;
    size_t *type = kd_xmalloc((base + 3 + extra + 1) * sizeof *type);
    size_t m = base;
    memcpy(type, items, base * sizeof *type);
    if (dims < n && extra) {
        type[m++] = ITEM_LPAREN;
        type[m++] = ITEM_STAR;
        type[m++] = ITEM_RPAREN;
        memcpy(type + m, items + extra_begin, extra * sizeof *type);
        m += extra;
    } else if (dims < n) {
        type[m++] = ITEM_STAR;
    }
    p->type = canonical_items(sc, type, m);
    if (dims < n) {
        /* The pointer facts come from the element type and its decay alone. */
        type[base] = ITEM_STAR;
        m = base + 1;
    }
    describe_pointer(sc, type, m, eq, p);
    free(type);
    free(items);
}

static void free_params(kd_param *params, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(params[i].name);
        free(params[i].type);
        free(params[i].pointee);
        free(params[i].default_value);
    }
    free(params);
}

/* The parameters between the parentheses at `open` and `close`. `()` and `(void)` have
 * none; empty slots (`(int a, )`) are dropped. */
static void parse_params(scanner *sc, size_t open, size_t close, kd_kernel *k)
{
    if (close == open + 1 || (close == open + 2 && tok_is(sc, open + 1, "void")))
        return;
    size_t cap = 0;
    size_t start = open + 1;
    for (size_t i = start; i <= close; i++) {
        if (i < close && !tok_punct(sc, i, ',')) {
            i = skip_nested(sc, i, close);
            continue;
        }
        if (i > start) {
            grow((void **)&k->params, &cap, k->nparams + 1, sizeof *k->params);
            kd_param *p = &k->params[k->nparams++];
            *p = (kd_param){0};
            parse_param(sc, start, i, p);
        }
        start = i + 1;
    }
}

/* ------------------------------------------------------------------ declaration heads */

typedef struct decl_head {
    bool has_global, is_launcher, extern_c, extern_template;
    bool explicit_instantiation; /* `template` without `<` */
    size_t tparams_open, tparams_close; /* the last template<...>, or NONE */
    size_t bounds_open, bounds_close;   /* __launch_bounds__( ), or NONE */
    size_t qual_begin, name;            /* `ns::` written before the name starts at qual_begin */
    size_t targs_open, targs_close;     /* k<...> before the parameters, or NONE */
    size_t params_open, params_close;
    size_t body_open; /* the body's `{`, or NONE */
    size_t stop; /* on failure: the token that ended the attempt */
} decl_head;

/* `X(...)` at `close + 1` was no parameter list when another declarator word follows it. */
static bool is_macro_group(const scanner *sc, size_t after)
{
    return tok_kind_is(sc, after, TOK_IDENT) && !tok_in(sc, after, after_params);
}

static size_t qualifier_start(const scanner *sc, size_t begin, size_t name)
{
    size_t q = name;
    while (q >= begin + 2 && tok_kind_is(sc, q - 1, TOK_SCOPE) && tok_kind_is(sc, q - 2, TOK_IDENT) &&
           !tok_in(sc, q - 2, reserved_words)) /* `void ::k`: the return type is no namespace */
        q -= 2;
    if (q >= begin + 1 && tok_kind_is(sc, q - 1, TOK_SCOPE))
        q--; /* `::k`, the global namespace */
    return q;
}

/* The `{` of the body that follows a declaration's parameters, or NONE (a prototype). */
static size_t body_open(const scanner *sc, size_t from)
{
    for (size_t i = from; i < sc->ntoks; i++) {
        if (tok_punct(sc, i, '{'))
            return i;
        /* The next kernel's keywords end the search too, so a run of declarations with
         * neither body nor `;` is not rescanned for each of them. */
        if (tok_punct(sc, i, ';') || tok_punct(sc, i, '}') || tok_is(sc, i, "__global__") ||
            tok_is(sc, i, KD_LAUNCHER_MARK) || tok_is(sc, i, "template"))
            return NONE;
        if (tok_punct(sc, i, '(') || tok_punct(sc, i, '[')) {
            size_t close = match_group(sc, i, sc->ntoks);
            if (close == NONE)
                return NONE;
            i = close;
        }
    }
    return NONE;
}

/* Handles a prefix at `i` (template<...>, extern "C", attributes); returns the index after
 * it, `i` when there is no prefix there, or NONE when its brackets do not close. */
static size_t read_prefix(const scanner *sc, size_t i, decl_head *h)
{
    size_t n = sc->ntoks;
    if (tok_is(sc, i, "template")) {
        if (!tok_punct(sc, i + 1, '<')) {
            h->explicit_instantiation = true;
            return i + 1;
        }
        size_t close = match_group(sc, i + 1, n);
        if (close == NONE)
            return NONE;
        h->tparams_open = i + 1;
        h->tparams_close = close;
        return close + 1;
    }
    if (tok_is(sc, i, "extern")) {
        if (tok_kind_is(sc, i + 1, TOK_STRING)) {
            h->extern_c |= sc->toks[i + 1].len == 3 && memcmp(tok_text(sc, i + 1), "\"C\"", 3) == 0;
            return i + 2;
        }
        h->extern_template |= tok_is(sc, i + 1, "template");
        return i + 1;
    }
    if (tok_is(sc, i, "__global__") || tok_is(sc, i, KD_LAUNCHER_MARK)) {
        h->has_global = true;
        h->is_launcher |= tok_is(sc, i, KD_LAUNCHER_MARK);
        return i + 1;
    }
    if (tok_in(sc, i, group_attributes) && tok_punct(sc, i + 1, '(')) {
        size_t close = match_group(sc, i + 1, n);
        if (close == NONE)
            return NONE;
        if (tok_is(sc, i, "__launch_bounds__")) {
            h->bounds_open = i + 1;
            h->bounds_close = close;
        }
        return close + 1;
    }
    if (tok_punct(sc, i, '[') && tok_punct(sc, i + 1, '[')) {
        size_t close = match_group(sc, i, n);
        return close == NONE ? NONE : close + 1;
    }
    return i;
}

/* Reads the declaration starting at token `begin` up to the end of its parameter list. */
static bool parse_decl_head(const scanner *sc, size_t begin, decl_head *h)
{
    *h = (decl_head){.tparams_open = NONE, .tparams_close = NONE, .bounds_open = NONE,
                     .bounds_close = NONE, .targs_open = NONE, .targs_close = NONE,
                     .name = NONE, .stop = NONE};
    size_t n = sc->ntoks;
    size_t i = begin;
    while (i < n) {
        size_t next = read_prefix(sc, i, h);
        if (next == NONE)
            break;
        if (next != i) {
            i = next;
            continue;
        }
        if (tok_punct(sc, i, ';') || tok_punct(sc, i, '{') || tok_punct(sc, i, '}'))
            break;
        if (tok_punct(sc, i, '(')) { /* a group with no name before it: `void (k)(...)` */
            size_t close = match_group(sc, i, n);
            if (close == NONE)
                break;
            i = close + 1;
            continue;
        }
        bool nameable = tok_kind_is(sc, i, TOK_IDENT) && !tok_in(sc, i, reserved_words);
        if (nameable && tok_punct(sc, i + 1, '<')) {
            size_t close = match_group(sc, i + 1, n);
            if (close != NONE && tok_punct(sc, close + 1, '(')) { /* k<float>(...) */
                h->targs_open = i + 1;
                h->targs_close = close;
                h->name = i;
                h->params_open = close + 1;
                break;
            }
            i = close != NONE ? close + 1 : i + 1; /* a templated type, or a less-than */
            continue;
        }
        if (nameable && tok_punct(sc, i + 1, '(')) {
            size_t close = match_group(sc, i + 1, n);
            if (close == NONE)
                break;
            if (is_macro_group(sc, close + 1)) {
                i = close + 1;
                continue;
            }
            h->name = i;
            h->params_open = i + 1;
            break;
        }
        i++;
    }
    h->stop = i;
    if (h->name == NONE)
        return false;
    h->params_close = match_group(sc, h->params_open, n);
    if (h->params_close == NONE)
        return false;
    h->qual_begin = qualifier_start(sc, begin, h->name);
    h->body_open = body_open(sc, h->params_close + 1);
    return true;
}

/* ------------------------------------------------------------------ scopes and kernels */

static bool in_extern_c(const scanner *sc)
{
    return sc->nscopes > 0 && sc->scopes[sc->nscopes - 1].extern_c;
}

static void push_scope(scanner *sc, char *ns_name, bool extern_c)
{
    grow((void **)&sc->scopes, &sc->scope_cap, sc->nscopes + 1, sizeof *sc->scopes);
    sc->scopes[sc->nscopes++] = (scope){ns_name, extern_c};
}

static void pop_scope(scanner *sc)
{
    if (sc->nscopes > 0)
        free(sc->scopes[--sc->nscopes].ns_name);
}

/* "ns::inner::" + the qualifier written before the name + the name. A written `::k`
 * starts from the global namespace. */
static char *qualified_name(scanner *sc, const decl_head *h)
{
    kd_strbuf b = {0};
    bool global = tok_kind_is(sc, h->qual_begin, TOK_SCOPE);
    for (size_t s = 0; s < sc->nscopes && !global; s++) {
        if (sc->scopes[s].ns_name && sc->scopes[s].ns_name[0]) {
            kd_sb_puts(&b, sc->scopes[s].ns_name);
            kd_sb_puts(&b, "::");
        }
    }
    for (size_t i = h->qual_begin + (global ? 1 : 0); i <= h->name; i++)
        kd_sb_append(&b, tok_text(sc, i), sc->toks[i].len);
    return kd_sb_take(&b);
}

static void free_kernel(kd_kernel *k)
{
    free(k->name);
    free(k->qualified);
    free_params(k->params, k->nparams);
    free(k->template_params);
    for (size_t i = 0; i < k->ninstantiations; i++)
        free(k->instantiations[i]);
    free(k->instantiations);
    free(k->launch_bounds);
    free(k->frontend_info);
    free(k->signature);
    free(k->header);
    *k = (kd_kernel){0};
}

void kd_kernel_free(kd_kernel *k) { free_kernel(k); }

static char *dup_or_null(const char *s) { return s ? kd_xstrdup(s) : NULL; }

void kd_kernel_copy(const kd_kernel *from, kd_kernel *to)
{
    *to = *from;
    to->name = dup_or_null(from->name);
    to->qualified = dup_or_null(from->qualified);
    to->params = from->nparams ? kd_xcalloc(from->nparams, sizeof *to->params) : NULL;
    for (size_t i = 0; i < from->nparams; i++) {
        to->params[i] = from->params[i];
        to->params[i].name = dup_or_null(from->params[i].name);
        to->params[i].type = dup_or_null(from->params[i].type);
        to->params[i].pointee = dup_or_null(from->params[i].pointee);
        to->params[i].default_value = dup_or_null(from->params[i].default_value);
    }
    to->template_params = dup_or_null(from->template_params);
    to->instantiations = from->ninstantiations ? kd_xcalloc(from->ninstantiations, sizeof *to->instantiations) : NULL;
    for (size_t i = 0; i < from->ninstantiations; i++)
        to->instantiations[i] = kd_xstrdup(from->instantiations[i]);
    to->launch_bounds = dup_or_null(from->launch_bounds);
    to->frontend_info = dup_or_null(from->frontend_info);
    to->signature = dup_or_null(from->signature);
    to->header = dup_or_null(from->header);
}

/* Word-by-word equality, ignoring const and volatile: a prototype's `const int n` and the
 * definition's `int n` declare the same function. */
static bool same_type_ignoring_cv(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || strncmp(a, "const ", 6) == 0 || strncmp(a, "volatile ", 9) == 0)
            a += *a == ' ' ? 1 : *a == 'c' ? 6 : 9;
        while (*b == ' ' || strncmp(b, "const ", 6) == 0 || strncmp(b, "volatile ", 9) == 0)
            b += *b == ' ' ? 1 : *b == 'c' ? 6 : 9;
        size_t la = strcspn(a, " "), lb = strcspn(b, " ");
        if (la != lb || memcmp(a, b, la) != 0)
            return false;
        if (la == 0)
            return true;
        a += la;
        b += lb;
    }
}

/* Whether `a` and `b` declare the same function (not overloads of one name). Template
 * parameter names may differ between declarations, so templates only match on shape. */
static bool same_signature(const kd_kernel *a, const kd_kernel *b)
{
    if (strcmp(a->qualified, b->qualified) != 0 || a->is_template != b->is_template ||
        a->nparams != b->nparams)
        return false;
    for (size_t i = 0; i < a->nparams; i++) {
        const kd_param *p = &a->params[i], *q = &b->params[i];
        if (p->is_pointer != q->is_pointer)
            return false;
        if (a->is_template)
            continue;
        if (p->is_pointer ? strcmp(p->pointee, q->pointee) != 0 : !same_type_ignoring_cv(p->type, q->type))
            return false;
    }
    return true;
}

/* Folds a redeclaration into the kernel already recorded. The definition's spelling wins;
 * the other declaration fills what it leaves out (names, default arguments, bounds). */
static void merge_kernel(kd_kernel *old, bool *old_defined, kd_kernel *k, bool defines)
{
    if (defines && !*old_defined) {
        kd_param *params = old->params;
        old->params = k->params;
        k->params = params;
        old->line = k->line;
        swap_str(&old->template_params, &k->template_params);
        if (k->launch_bounds || !old->launch_bounds)
            swap_str(&old->launch_bounds, &k->launch_bounds);
        *old_defined = true;
    }
    for (size_t i = 0; i < old->nparams; i++) {
        kd_param *p = &old->params[i], *q = &k->params[i];
        if (!p->name[0] && q->name[0])
            swap_str(&p->name, &q->name);
        if (!p->default_value)
            swap_str(&p->default_value, &q->default_value);
    }
    if (!old->launch_bounds)
        swap_str(&old->launch_bounds, &k->launch_bounds);
    if (!old->template_params)
        swap_str(&old->template_params, &k->template_params);
    old->extern_c |= k->extern_c;
    free_kernel(k);
}

static void add_kernel(scanner *sc, kd_kernel *k, bool defines)
{
    for (size_t i = 0; i < sc->nkernels; i++) {
        if (same_signature(&sc->kernels[i], k)) {
            merge_kernel(&sc->kernels[i], &sc->defined[i], k, defines);
            return;
        }
    }
    size_t cap = sc->kernel_cap;
    grow((void **)&sc->kernels, &cap, sc->nkernels + 1, sizeof *sc->kernels);
    grow((void **)&sc->defined, &sc->kernel_cap, sc->nkernels + 1, sizeof *sc->defined);
    sc->kernels[sc->nkernels] = *k;
    sc->defined[sc->nkernels++] = defines;
}

/* Which pointer parameters the body opening at token `open` never writes (body_writes.h). */
static void mark_unwritten(scanner *sc, size_t open, kd_kernel *k)
{
    size_t close = open + 1;
    for (size_t depth = 1; close < sc->ntoks; close++) {
        if (tok_punct(sc, close, '{'))
            depth++;
        else if (tok_punct(sc, close, '}') && --depth == 0)
            break;
    }
    if (close >= sc->ntoks)
        return; /* an unclosed body: nothing is sure */
    size_t n = close - open - 1;
    kd_body_token *toks = kd_xmalloc((n ? n : 1) * sizeof *toks);
    for (size_t i = 0; i < n; i++) {
        const token *t = &sc->toks[open + 1 + i];
        toks[i] = (kd_body_token){sc->text + t->off, t->len, t->kind == TOK_IDENT || t->kind == TOK_NUMBER};
    }
    kd_body_mark_unwritten(toks, n, sc->directives.len ? kd_sb_str(&sc->directives) : NULL, k->params, k->nparams);
    free(toks);
}

static void record_kernel(scanner *sc, const decl_head *h)
{
    kd_kernel k = {0};
    k.name = kd_xstrndup(tok_text(sc, h->name), sc->toks[h->name].len);
    k.qualified = qualified_name(sc, h);
    k.extern_c = h->extern_c || in_extern_c(sc);
    k.is_launcher = h->is_launcher;
    k.is_template = h->tparams_open != NONE;
    if (k.is_template)
        k.template_params = source_range(sc, h->tparams_open + 1, h->tparams_close);
    if (h->bounds_open != NONE)
        k.launch_bounds = source_range(sc, h->bounds_open + 1, h->bounds_close);
    k.line = sc->toks[h->name].line;
    parse_params(sc, h->params_open, h->params_close, &k);
    bool defines = h->body_open != NONE;
    if (defines)
        mark_unwritten(sc, h->body_open, &k);
    if (defines && !h->is_launcher) {
        size_t cap = sc->body_cap;
        grow((void **)&sc->bodies, &cap, sc->nbodies + 1, sizeof *sc->bodies);
        sc->body_cap = cap;
        sc->bodies[sc->nbodies++] = sc->toks[h->body_open].off;
    }
    add_kernel(sc, &k, defines);
}

/* The template kernel an instantiation names: the exact qualified name first, then any
 * template of that name (the instantiation may be written from another namespace). */
static kd_kernel *find_template(scanner *sc, const char *qualified, const char *name)
{
    for (size_t i = 0; i < sc->nkernels; i++)
        if (sc->kernels[i].is_template && strcmp(sc->kernels[i].qualified, qualified) == 0)
            return &sc->kernels[i];
    for (size_t i = 0; i < sc->nkernels; i++)
        if (sc->kernels[i].is_template && strcmp(sc->kernels[i].name, name) == 0)
            return &sc->kernels[i];
    return NULL;
}

/* `template __global__ void k<float>(...)` and the specialisation `template <> ...
 * k<float>(...) {}` both make k<float> exist; without written arguments (deduced from the
 * parameters) there is nothing to record. */
static void record_instantiation(scanner *sc, const decl_head *h)
{
    if (h->targs_open == NONE)
        return;
    char *qualified = qualified_name(sc, h);
    char *name = kd_xstrndup(tok_text(sc, h->name), sc->toks[h->name].len);
    char *args = canonical_range(sc, h->targs_open + 1, h->targs_close);
    kd_kernel *k = find_template(sc, qualified, name);
    bool known = false;
    for (size_t i = 0; k && i < k->ninstantiations; i++)
        known |= strcmp(k->instantiations[i], args) == 0;
    size_t cap = k ? k->ninstantiations : 0;
    if (k && !known) {
        grow((void **)&k->instantiations, &cap, k->ninstantiations + 1, sizeof *k->instantiations);
        k->instantiations[k->ninstantiations++] = args;
        args = NULL;
    }
    free(args);
    free(name);
    free(qualified);
}

/* Handles the declaration around the `__global__` (or instantiating `template`) at
 * `trigger`. Returns the first token not yet consumed by it. */
static size_t handle_declaration(scanner *sc, size_t *decl_start, size_t trigger)
{
    decl_head h;
    size_t begin = *decl_start;
    for (;;) {
        if (!parse_decl_head(sc, begin, &h))
            return h.stop > trigger ? h.stop : trigger + 1;
        if (h.name > trigger)
            break;
        /* Something before the trigger read as a whole declaration (a missing `;`, an
         * unknown macro): skip it and read on. */
        begin = h.params_close + 1;
    }
    *decl_start = h.params_close + 1;
    bool specialisation = h.tparams_open != NONE && h.tparams_close == h.tparams_open + 1;
    if (h.extern_template)
        ; /* declares that k<T> is instantiated elsewhere */
    else if (h.explicit_instantiation || specialisation)
        record_instantiation(sc, &h);
    else if (h.has_global)
        record_kernel(sc, &h);
    return h.params_close + 1;
}

/* `namespace a::b {` pushes a named scope and returns the brace; NONE for aliases and
 * using-directives, which open nothing. */
static size_t open_namespace(scanner *sc, size_t i)
{
    kd_strbuf name = {0};
    size_t j = i + 1;
    for (; j < sc->ntoks; j++) {
        if (tok_is(sc, j, "inline"))
            continue;
        if (!tok_kind_is(sc, j, TOK_IDENT) && !tok_kind_is(sc, j, TOK_SCOPE))
            break;
        kd_sb_append(&name, tok_text(sc, j), sc->toks[j].len);
    }
    if (!tok_punct(sc, j, '{')) {
        kd_sb_free(&name);
        return NONE;
    }
    push_scope(sc, kd_sb_take(&name), in_extern_c(sc));
    return j;
}

static void scan_declarations(scanner *sc)
{
    size_t decl_start = 0, consumed = 0;
    for (size_t i = 0; i < sc->ntoks; i++) {
        if (tok_punct(sc, i, ';')) {
            decl_start = i + 1;
        } else if (tok_punct(sc, i, '{')) {
            push_scope(sc, NULL, in_extern_c(sc));
            decl_start = i + 1;
        } else if (tok_punct(sc, i, '}')) {
            pop_scope(sc);
            decl_start = i + 1;
        } else if (i < consumed) {
            continue;
        } else if (tok_is(sc, i, "namespace")) {
            size_t brace = open_namespace(sc, i);
            if (brace != NONE) {
                i = brace;
                decl_start = brace + 1;
            }
        } else if (tok_is(sc, i, "extern") && tok_kind_is(sc, i + 1, TOK_STRING) && tok_punct(sc, i + 2, '{')) {
            bool c_linkage = sc->toks[i + 1].len == 3 && memcmp(tok_text(sc, i + 1), "\"C\"", 3) == 0;
            push_scope(sc, NULL, c_linkage);
            i += 2;
            decl_start = i + 1;
        } else if (tok_is(sc, i, "__global__") || tok_is(sc, i, KD_LAUNCHER_MARK) ||
                   (tok_is(sc, i, "template") && i == decl_start && !tok_punct(sc, i + 1, '<'))) {
            consumed = handle_declaration(sc, &decl_start, i);
        }
    }
}

/* ------------------------------------------------------------------ public interface */

static void free_kernels(kd_kernel *items, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free_kernel(&items[i]);
    free(items);
}

/* Runs the scanner over `text`; the caller takes what it needs and calls scan_end. */
static void scan_run(scanner *sc, const char *text, size_t len)
{
    *sc = (scanner){.text = text, .len = len};
    lex(sc);
    pair_brackets(sc);
    scan_declarations(sc);
    while (sc->nscopes > 0)
        pop_scope(sc);
}

static void scan_end(scanner *sc)
{
    free(sc->scopes);
    free(sc->toks);
    free(sc->defined);
    free(sc->bodies);
    kd_sb_free(&sc->directives);
    free_kernels(sc->kernels, sc->nkernels);
}

int kd_scan_source(const char *text, size_t len, kd_kernel_list *out)
{
    if (!out)
        return -1;
    *out = (kd_kernel_list){0};
    if (!text || len == 0)
        return 0;
    scanner sc;
    scan_run(&sc, text, len);
    out->items = sc.kernels;
    out->count = sc.nkernels;
    out->macro_kernels = sc.macro_kernels;
    sc.kernels = NULL;
    sc.nkernels = 0;
    scan_end(&sc);
    return 0;
}

void kd_scan_kernel_bodies(const char *text, size_t len, size_t **offsets, size_t *count)
{
    *offsets = NULL;
    *count = 0;
    if (!text || len == 0)
        return;
    scanner sc;
    scan_run(&sc, text, len);
    *offsets = sc.bodies;
    *count = sc.nbodies;
    sc.bodies = NULL;
    scan_end(&sc);
}

void kd_kernel_list_free(kd_kernel_list *list)
{
    if (!list)
        return;
    free_kernels(list->items, list->count);
    *list = (kd_kernel_list){0};
}

/* "tk<float, 4u>" names the kernel "tk<float,4>" of a compiled list (a .ptx's instances are
 * kernels of their own): same base name, same template arguments however spelled. */
static bool same_instance(const char *a, const char *b)
{
    const char *la = strchr(a, '<'), *lb = strchr(b, '<');
    if (!la || !lb || la - a != lb - b || strncmp(a, b, (size_t)(la - a)) != 0)
        return false;
    return kd_same_template_args(la, lb);
}

const kd_kernel *kd_kernel_find(const kd_kernel_list *list, const char *name)
{
    if (!list || !name)
        return NULL;
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->items[i].name, name) == 0 || strcmp(list->items[i].qualified, name) == 0)
            return &list->items[i];
    for (size_t i = 0; strchr(name, '<') && i < list->count; i++)
        if (same_instance(list->items[i].name, name) || same_instance(list->items[i].qualified, name))
            return &list->items[i];
    return NULL;
}
