/* ptx.y — pure bison grammar for PTX modules. The grammar knows statements,
 * declarations and operand shapes only; every instruction is one OPCODE token
 * and its meaning lives in the opcode/modifier tables. Actions call the
 * builder (build.c, decl.c), which owns all semantic checks. Semantic values
 * own nothing (spans into the source text, values, arena nodes), so error
 * recovery needs no %destructor. */
%code requires {
#include "fe.h"
}
%code provides {
int ptx_lex(PTX_STYPE *lval, fe_yyltype *lloc, void *scanner);
}
%code {
#include <string.h>
#define L(x) fe_loc(&(x))
static void ptx_error(fe_yyltype *loc, void *scanner, fe_parser *p, const char *msg) {
    (void)scanner;
    /* only "memory exhausted" reaches here: input nested beyond the parser stack */
    fe_error(p, fe_loc(loc), "%s (input nested too deeply)", msg);
}
}

%define api.pure full
%define api.prefix {ptx_}
%define api.location.type {fe_yyltype}
%define parse.error custom
%locations
%expect 0
%parse-param {void *scanner} {fe_parser *p}
%lex-param {void *scanner}

%union {
    fe_span str;
    fe_cval cv;
    fe_opc opc;
    fe_dir dir;
    uint32_t u;
    struct { fe_span name; bool neg, present; ir_loc loc; } guard;
}

%token <str> IDENT "identifier" REG "register" LABEL "label" STRING "string"
%token <str> LOC "'.loc'" FILE_D "'.file'" DWARF "'@@DWARF'" SECTION "'.section'"
%token <opc> OPCODE "instruction"
%token <cv> NUM "number"
%token <dir> DIR "directive" VERSION "'.version'" TARGET "'.target'" ADDRESS_SIZE "'.address_size'"
%token <dir> ENTRY "'.entry'" FUNC "'.func'" ALIGN "'.align'" ATTRIBUTE "'.attribute'"
%token <dir> PRAGMA "'.pragma'" NORETURN "'.noreturn'" BRANCHTARGETS "'.branchtargets'"
%token <dir> CALLTARGETS "'.calltargets'" CALLPROTOTYPE "'.callprototype'" PERF "performance directive"
%token <dir> ALIAS "'.alias'"
%token SHL "'<<'" SHR "'>>'"

%left '|'
%left '^'
%left '&'
%left SHL SHR
%left '+' '-'
%left '*' '/'
%precedence UNARY

%type <cv> cexpr oexpr catom range oname
%type <guard> guard
%type <u> mark
%type <str> dname pname

%%

module:
    %empty
  | module top
  ;

top:
    VERSION NUM                 { fe_version(p, $2.sym, L(@1), L(@2)); if ($2.kind != CV_DEC) fe_error(p, L(@2), "expected a version number such as 8.0"); }
  | TARGET                      { fe_target_begin(p, L(@1)); } targets
  | ADDRESS_SIZE NUM            { fe_address_size(p, (uint64_t)$2.i, L(@1), L(@2)); }
  | FILE_D                      { fe_top_item(p, L(@1)); fe_file_directive(p, $1, L(@1)); }
  | SECTION                     { fe_top_item(p, L(@1)); fe_section(p, $1); }
  | DWARF                       { fe_top_item(p, L(@1)); fe_section(p, $1); }
  | LOC                         { fe_top_item(p, L(@1)); fe_loc_directive(p, $1, L(@1)); }
  | decl ';'                    { fe_top_item(p, p->dirs.n ? p->dirs.v[0].loc : L(@1)); }
  | func
  | ALIAS IDENT ',' IDENT ';'   { fe_alias(p, $2, $4, L(@2), L(@4)); }
  | ';'                         /* empty statement; also ends a recovery at '}' quietly */
  | error ';'                   { yyerrok; }
  | error '}'                   { yyerrok; }
  ;

targets:
    IDENT                       { fe_target(p, $1, L(@1)); }
  | targets ',' IDENT           { fe_target(p, $3, L(@3)); }
  ;

/* ---- declarations: a run of directives, then names ---- */
dirs_start: %empty             { fe_dirs_reset(p); } ;
dirs:
    dirs_start dir
  | dirs dir
  ;
dir:
    DIR                         { fe_dir_push(p, $1.v, 0, $1.text, $1.loc); }
  | ALIGN NUM                   { fe_dir_push(p, -1, $2.kind == CV_INT ? (uint32_t)$2.i : 0, $1.text, $1.loc); }
  | ATTRIBUTE '(' attrs ')'
  ;
attrs:
    DIR                         { fe_dir_push(p, $1.v, 0, $1.text, $1.loc); }
  | attrs ',' DIR               { fe_dir_push(p, $3.v, 0, $3.text, $3.loc); }
  ;

decl: dirs declnames ;
declnames:
    declname
  | declnames ',' declname
  ;
declname: declid init_opt       { fe_decl_end(p); } ;
declid: dname range dims        { fe_decl_begin(p, $1, L(@1), $2.kind == CV_INT, (uint64_t)$2.i); } ;
dname: IDENT | REG ;
range:
    %empty                      { $$ = (fe_cval){ .kind = CV_BAD }; }
  | '<' NUM '>'                 { $$ = $2; if ($2.kind != CV_INT) { fe_error(p, L(@2), "register count must be an integer"); $$.kind = CV_BAD; } }
  ;
dims:
    %empty                      { p->dims.n = 0; }
  | dims '[' cexpr ']'          { fe_dim(p, &$3, true, L(@3)); }
  | dims '[' ']'                { fe_dim(p, NULL, false, L(@2)); }
  ;
init_opt:
    %empty
  | '=' { fe_init_begin(p, L(@1)); } initval
  ;
initval:
    cexpr                       { fe_init_elem(p, &$1); }
  | oname                       { fe_init_elem(p, &$1); }
  | OPCODE '(' cexpr ')'        { fe_cval v = fe_cv_call(p, $1.text, $3, L(@1)); fe_init_elem(p, &v); }
  | '{' { fe_init_open(p, L(@1)); } initlist '}' { fe_init_close(p); }
  ;
initlist:
    initval
  | initlist ',' initval
  ;

/* ---- functions ---- */
func: fhead fparams fdirs fbody ;
dirs_opt:
    %empty                      { fe_dirs_reset(p); }
  | dirs
  ;
fhead:
    dirs_opt ENTRY              { fe_func_begin(p, true, L(@2)); }
    IDENT                       { fe_func_name(p, $4, L(@4)); }
  | dirs_opt FUNC               { fe_func_begin(p, false, L(@2)); }
    frets IDENT                 { fe_func_name(p, $5, L(@5)); }
  ;
frets:
    %empty
  | '(' { p->param_ctx = 1; } plist_opt ')' { p->param_ctx = 0; }
  ;
fparams:
    %empty
  | '(' plist_opt ')'
  ;
plist_opt:
    %empty
  | plist
  ;
plist:
    pdecl
  | plist ',' pdecl
  ;
pdecl: dirs pname dims          { fe_param(p, $2, L(@2)); } ;
pname:
    IDENT
  | '_'                         { $$ = (fe_span){ "_", 1 }; }
  ;
fdirs:
    %empty
  | fdirs fdir
  ;
fdir:
    PERF { p->ints.n = 0; } intlist_opt { fe_perf(p, $1.v, $1.loc); }
  | NORETURN                    { fe_noreturn(p); }
  | PRAGMA STRING ';'           { fe_func_pragma(p, $2, L(@2)); }
  ;
intlist_opt:
    %empty
  | intlist
  ;
intlist:
    cexpr                       { fe_int_push(p, &$1, L(@1)); }
  | intlist ',' cexpr           { fe_int_push(p, &$3, L(@3)); }
  ;
fbody:
    ';'                         { fe_func_end(p, false); }
  | '{' { fe_body_begin(p); } stmts '}' { fe_func_end(p, true); }
  ;

/* ---- statements ---- */
stmts:
    %empty
  | stmts stmt
  ;
stmt:
    insn ';'
  | LABEL                       { fe_label(p, $1, L(@1)); }
  | LABEL BRANCHTARGETS         { fe_label(p, $1, L(@1)); fe_branchtargets(p, L(@1)); } tnames ';' { fe_targets_end(p); }
  | LABEL CALLTARGETS           { fe_label(p, $1, L(@1)); fe_calltargets(p, L(@1)); } tnames ';' { fe_targets_end(p); }
  | LABEL CALLPROTOTYPE         { fe_label(p, $1, L(@1)); fe_proto_begin(p, L(@1)); } protosig ';' { fe_proto_end(p); }
  | decl ';'
  | '{'                         { fe_scope_begin(p, L(@1)); }
    stmts '}'                   { fe_scope_end(p, L(@4)); }
  | LOC                         { fe_loc_directive(p, $1, L(@1)); }
  | DWARF                       { fe_section(p, $1); }
  | PRAGMA STRING ';'           { fe_stmt_pragma(p, $2, L(@2)); }
  | ';'
  | error ';'                   { yyerrok; }
  ;
tnames:
    IDENT                       { fe_target_name(p, $1, L(@1)); }
  | tnames ',' IDENT            { fe_target_name(p, $3, L(@3)); }
  ;
protosig: protorets '_' protoparams noreturn_opt ;
protorets:
    %empty
  | '(' { p->param_ctx = 1; } plist_opt ')' { p->param_ctx = 0; }
  ;
protoparams:
    %empty
  | '(' plist_opt ')'
  ;
noreturn_opt:
    %empty
  | NORETURN                    { fe_noreturn(p); }
  ;

insn: guard OPCODE { p->cur_op = $2.op; } operands { fe_insn(p, $1.present ? &$1.name : NULL, $1.neg, $1.loc, &$2, L(@2)); } ;
guard:
    %empty                      { fe_insn_begin(p); $$.present = false; $$.neg = false; $$.loc = (ir_loc){ 0, 0 }; $$.name = (fe_span){ 0, 0 }; }
  | '@' REG                     { fe_insn_begin(p); $$.present = true; $$.neg = false; $$.name = $2; $$.loc = L(@1); }
  | '@' '!' REG                 { fe_insn_begin(p); $$.present = true; $$.neg = true; $$.name = $3; $$.loc = L(@1); }
  | '@' IDENT                   { fe_insn_begin(p); $$.present = true; $$.neg = false; $$.name = $2; $$.loc = L(@1); }
  | '@' '!' IDENT               { fe_insn_begin(p); $$.present = true; $$.neg = true; $$.name = $3; $$.loc = L(@1); }
  ;
operands:
    %empty
  | oplist
  ;
oplist:
    operand
  | oplist ',' operand
  ;
mark: %empty                    { $$ = fe_op_mark(p); } ;
operand:
    REG                         { fe_op_reg(p, $1, L(@1), 0); }
  | '!' REG                     { fe_op_reg(p, $2, L(@1), '!'); }
  | '!' IDENT                   { fe_op_reg(p, $2, L(@1), '!'); }
  | '-' REG                     { fe_op_reg(p, $2, L(@1), '-'); }   /* vmad's negated operands */
  | REG '|' REG                 { fe_op_reg(p, $1, L(@1), 0); fe_op_reg(p, $3, L(@3), 0); fe_op_pair(p, L(@1)); }
  | REG '|' IDENT               { fe_op_reg(p, $1, L(@1), 0); fe_op_reg(p, $3, L(@3), 0); fe_op_pair(p, L(@1)); }
  | IDENT '|' REG               { fe_op_reg(p, $1, L(@1), 0); fe_op_reg(p, $3, L(@3), 0); fe_op_pair(p, L(@1)); }
  | IDENT '|' IDENT             { fe_op_reg(p, $1, L(@1), 0); fe_op_reg(p, $3, L(@3), 0); fe_op_pair(p, L(@1)); }
  | '_'                         { fe_op_sink(p, L(@1)); }
  | oexpr                       { fe_op_cval(p, &$1); }
  | '[' mark addrlist ']'       { fe_op_group(p, $2, IR_OPND_ADDR, L(@1)); }
  | '{' mark veclist '}'        { fe_op_group(p, $2, IR_OPND_VEC, L(@1)); }
  | '(' mark ')'                { fe_op_group(p, $2, IR_OPND_LIST, L(@1)); }
  | '(' mark oplist ')'         { fe_op_group(p, $2, IR_OPND_LIST, L(@1)); }
  ;
addrlist:
    aitem
  | addrlist ',' aitem
  ;
aitem:
    REG                         { fe_op_reg(p, $1, L(@1), 0); }
  | REG '+' cexpr               { fe_op_reg(p, $1, L(@1), 0); fe_op_addr_off(p, &$3, false); }
  | REG '-' cexpr               { fe_op_reg(p, $1, L(@1), 0); fe_op_addr_off(p, &$3, true); }
  | cexpr                       { fe_op_cval(p, &$1); }
  | '{' mark veclist '}'        { fe_op_group(p, $2, IR_OPND_VEC, L(@1)); }
  ;
veclist:
    vitem
  | veclist ',' vitem
  ;
vitem:
    REG                         { fe_op_reg(p, $1, L(@1), 0); }
  | oname                       { fe_op_cval(p, &$1); }
  | '!' REG                     { fe_op_reg(p, $2, L(@1), '!'); }
  | '_'                         { fe_op_sink(p, L(@1)); }
  | cexpr                       { fe_op_cval(p, &$1); }
  ;

/* a name right after '{' scans as an instruction word; here it is a name */
oname: OPCODE                   { $$ = fe_cv_name(p, $1.text, L(@1));
                                  if (memchr($1.text.s, '.', $1.text.n)) { fe_error(p, L(@1), "unexpected '%.*s'", (int)$1.text.n, $1.text.s); $$.kind = CV_BAD; } } ;

/* ---- constant expressions; oexpr is one that cannot start with '(' so a
 * parenthesised operand is always an argument list ---- */
catom:
    NUM
  | IDENT                       { $$ = fe_cv_name(p, $1, L(@1)); }
  | IDENT '(' cexpr ')'         { $$ = fe_cv_call(p, $1, $3, L(@1)); }
  | NUM '(' cexpr ')'           { $$ = fe_cv_mask(p, $1, $3, L(@1)); }
  ;
cexpr:
    catom
  | '(' cexpr ')'               { $$ = $2; }
  | '-' cexpr %prec UNARY       { $$ = fe_cv_unop(p, '-', $2, L(@1)); }
  | '~' cexpr %prec UNARY       { $$ = fe_cv_unop(p, '~', $2, L(@1)); }
  | cexpr '+' cexpr             { $$ = fe_cv_binop(p, '+', $1, $3, L(@2)); }
  | cexpr '-' cexpr             { $$ = fe_cv_binop(p, '-', $1, $3, L(@2)); }
  | cexpr '*' cexpr             { $$ = fe_cv_binop(p, '*', $1, $3, L(@2)); }
  | cexpr '/' cexpr             { $$ = fe_cv_binop(p, '/', $1, $3, L(@2)); }
  | cexpr '&' cexpr             { $$ = fe_cv_binop(p, '&', $1, $3, L(@2)); }
  | cexpr '|' cexpr             { $$ = fe_cv_binop(p, '|', $1, $3, L(@2)); }
  | cexpr '^' cexpr             { $$ = fe_cv_binop(p, '^', $1, $3, L(@2)); }
  | cexpr SHL cexpr             { $$ = fe_cv_binop(p, 'L', $1, $3, L(@2)); }
  | cexpr SHR cexpr             { $$ = fe_cv_binop(p, 'R', $1, $3, L(@2)); }
  ;
oexpr:
    catom
  | '-' cexpr %prec UNARY       { $$ = fe_cv_unop(p, '-', $2, L(@1)); }
  | '~' cexpr %prec UNARY       { $$ = fe_cv_unop(p, '~', $2, L(@1)); }
  | oexpr '+' cexpr             { $$ = fe_cv_binop(p, '+', $1, $3, L(@2)); }
  | oexpr '-' cexpr             { $$ = fe_cv_binop(p, '-', $1, $3, L(@2)); }
  | oexpr '*' cexpr             { $$ = fe_cv_binop(p, '*', $1, $3, L(@2)); }
  | oexpr '/' cexpr             { $$ = fe_cv_binop(p, '/', $1, $3, L(@2)); }
  | oexpr '&' cexpr             { $$ = fe_cv_binop(p, '&', $1, $3, L(@2)); }
  | oexpr '^' cexpr             { $$ = fe_cv_binop(p, '^', $1, $3, L(@2)); }
  | oexpr SHL cexpr             { $$ = fe_cv_binop(p, 'L', $1, $3, L(@2)); }
  | oexpr SHR cexpr             { $$ = fe_cv_binop(p, 'R', $1, $3, L(@2)); }
  ;

%%

/* "unexpected X, expected Y or Z"; a missing ';' at the end of a line is
 * reported right after the last token of that line, where it belongs. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, fe_parser *p) {
    (void)scanner;
    yysymbol_kind_t exp[6];
    int n = yypcontext_expected_tokens(ctx, exp, 6);
    yysymbol_kind_t la = yypcontext_token(ctx);
    const fe_yyltype *at = yypcontext_location(ctx);
    bool want_semi = false;
    for (int i = 0; i < n; i++)
        if (strcmp(yysymbol_name(exp[i]), "';'") == 0)
            want_semi = true;
    if (want_semi && la != YYSYMBOL_YYEOF && p->prev_end.last_line > 0 && at->first_line > p->prev_end.last_line) {
        fe_error(p, (ir_loc){ (uint32_t)p->prev_end.last_line, (uint32_t)p->prev_end.last_column },
                 "expected ';' at end of statement");
        return 0;
    }
    char buf[512];
    int len;
    if (la == YYSYMBOL_YYEOF)
        len = snprintf(buf, sizeof buf, "unexpected end of file");
    else if (yysymbol_name(la)[0] == '\'')   /* punctuation and keywords name themselves */
        len = snprintf(buf, sizeof buf, "unexpected %s", yysymbol_name(la));
    else
        len = snprintf(buf, sizeof buf, "unexpected %s '%.*s'", yysymbol_name(la),
                       (int)(p->tok.n > 40 ? 40 : p->tok.n), p->tok.s);
    if (n > 0 && n <= 4) {
        len += snprintf(buf + len, sizeof buf - (size_t)len, ", expected ");
        for (int i = 0; i < n && len < (int)sizeof buf; i++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                            yysymbol_name(exp[i]));
    }
    fe_error(p, fe_loc(at), "%s", buf);
    return 0;
}
