package io.jdbcrepl.capture.sql;

import io.jdbcrepl.dialect.Dialect;

/**
 * Just enough SQL lexing to read leading keywords and find where statements end without the
 * parser: whitespace, comments, string literals, quoted identifiers and dollar quotes, per dialect ({@link SqlSyntax}).
 * The static methods serve {@link SqlClassifier#mayChangeRows} and allocate nothing.
 */
final class SqlLexer {

    enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL, END }

    private final String sql;
    private final SqlSyntax syntax;
    private final int commentRules;
    private int pos;
    private Kind kind;
    private int start;
    private int end;
    private boolean executableComment;

    SqlLexer(String sql, Dialect dialect, int from) {
        this.sql = sql;
        this.syntax = dialect.part(SqlSyntax.class);
        this.commentRules = commentRules(syntax);
        this.pos = from;
    }

    /** Moves to the next token and returns its kind. */
    Kind next() {
        pos = skipBlank(pos);
        start = pos;
        if (pos >= sql.length()) {
            end = pos;
            return kind = Kind.END;
        }
        char c = sql.charAt(pos);
        boolean backslashes = syntax.backslashEscapes();
        if (c == '\'') {
            end = quoteEnd(pos, '\'', backslashes);
            kind = Kind.STRING;
        } else if ((c == 'E' || c == 'e') && syntax.escapeStrings() && at(pos + 1, '\'')) {
            end = quoteEnd(pos + 1, '\'', true);
            kind = Kind.STRING;
        } else if (c == '"' || c == '`') {
            end = quoteEnd(pos, c, backslashes);
            kind = Kind.QUOTED;
        } else if (c == '$' && syntax.dollarQuotes() && dollarTagEnd(pos) > 0) {
            int tagEnd = dollarTagEnd(pos);
            int close = sql.indexOf(sql.substring(pos, tagEnd), tagEnd);
            end = close < 0 ? sql.length() : close + (tagEnd - pos);
            kind = Kind.STRING;
        } else if (isWordStart(c)) {
            end = wordEnd(sql, pos);
            kind = Kind.WORD;
        } else if (Character.isDigit(c)) {
            end = pos + 1;
            while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) end++;
            kind = Kind.NUMBER;
        } else {
            end = pos + 1;
            kind = Kind.SYMBOL;
        }
        pos = end;
        return kind;
    }

    Kind kind() {
        return kind;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    String text() {
        return sql.substring(start, end);
    }

    boolean isWord(String keyword) {
        return kind == Kind.WORD && end - start == keyword.length()
                && sql.regionMatches(true, start, keyword, 0, keyword.length());
    }

    boolean isWordIn(String... keywords) {
        for (String k : keywords) {
            if (isWord(k)) return true;
        }
        return false;
    }

    boolean isSymbol(char c) {
        return kind == Kind.SYMBOL && sql.charAt(start) == c;
    }

    boolean isName() {
        return kind == Kind.WORD || kind == Kind.QUOTED;
    }

    /** A {@code name[.name…]} as written: its parts and where it stands in the SQL. */
    record DottedName(java.util.List<String> parts, int start, int end) {
    }

    /**
     * Reads {@code name[.name…]} at the current token, leaving the lexer after it; null when there is
     * no name there or a dot is not followed by one.
     */
    DottedName dottedName() {
        if (!isName()) return null;
        int first = start;
        int last = end;
        java.util.List<String> parts = new java.util.ArrayList<>();
        parts.add(text());
        while (next() == Kind.SYMBOL && isSymbol('.')) {
            next();
            if (!isName()) return null;
            parts.add(text());
            last = end;
        }
        return new DottedName(parts, first, last);
    }

    /** Whether a MySQL executable comment ({@code /*! … *}{@code /}) was skipped: its content runs. */
    boolean sawExecutableComment() {
        return executableComment;
    }

    private boolean at(int i, char c) {
        return i < sql.length() && sql.charAt(i) == c;
    }

    private int skipBlank(int from) {
        int rules = commentRules;
        int p = from;
        while (true) {
            if (syntax.executableComments() && (sql.startsWith("/*!", p) || sql.startsWith("/*M!", p))) {
                executableComment = true;
            }
            int next = skipOne(sql, p, rules);
            if (next < 0) return sql.length();
            if (next == p) return p;
            p = next;
        }
    }

    /** The end of a quoted token starting at {@code open}; a doubled quote (or backslash) escapes. */
    private int quoteEnd(int open, char quote, boolean backslashEscapes) {
        int i = open + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (!at(i + 1, quote)) return i + 1;
                i += 2;
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /** The end of a dollar-quote tag ({@code $$}, {@code $body$}) starting at {@code i}, or -1. */
    private int dollarTagEnd(int i) {
        if (i > 0 && isWordPart(sql.charAt(i - 1))) return -1; // inside a name like a$b
        int j = i + 1;
        if (j < sql.length() && Character.isDigit(sql.charAt(j))) return -1; // $1: a parameter
        while (j < sql.length() && sql.charAt(j) != '$') {
            if (!isWordPart(sql.charAt(j))) return -1;
            j++;
        }
        return j < sql.length() ? j + 1 : -1;
    }

    // ---- allocation-free helpers ----

    /** Block comments nest (PostgreSQL, H2). */
    static final int NESTED = 1;
    /** {@code #} starts a line comment (MySQL). */
    static final int HASH = 2;
    /** {@code //} starts a line comment (H2). */
    static final int SLASHES = 4;
    /** {@code --} starts a comment only when a blank follows (MySQL). */
    static final int DASHES_NEED_BLANK = 8;

    static int commentRules(SqlSyntax syntax) {
        return (syntax.nestedComments() ? NESTED : 0) | (syntax.hashComments() ? HASH : 0)
                | (syntax.slashComments() ? SLASHES : 0) | (syntax.dashesNeedBlank() ? DASHES_NEED_BLANK : 0);
    }

    /**
     * Skips one run of whitespace or one comment at {@code p}: returns where it ends, {@code p}
     * itself when there is none, or -1 when a block comment is not closed.
     */
    static int skipOne(String sql, int p, int rules) {
        int n = sql.length();
        if (p >= n) return p;
        char c = sql.charAt(p);
        if (Character.isWhitespace(c) || c == '\uFEFF') {
            int i = p + 1;
            while (i < n && (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == '\uFEFF')) i++;
            return i;
        }
        char c2 = p + 1 < n ? sql.charAt(p + 1) : 0;
        boolean dashes = c == '-' && c2 == '-'
                && ((rules & DASHES_NEED_BLANK) == 0 || p + 2 == n || sql.charAt(p + 2) <= ' ');
        boolean lineComment = dashes || (c == '#' && (rules & HASH) != 0)
                || (c == '/' && c2 == '/' && (rules & SLASHES) != 0);
        if (lineComment) {
            int eol = p;
            while (eol < n && sql.charAt(eol) != '\n' && sql.charAt(eol) != '\r') eol++;
            return eol;
        }
        if (c == '/' && c2 == '*') {
            int level = 1;
            int i = p + 2;
            while (i < n) {
                if (sql.charAt(i) == '*' && i + 1 < n && sql.charAt(i + 1) == '/') {
                    if (--level == 0) return i + 2;
                    i += 2;
                } else if ((rules & NESTED) != 0 && sql.charAt(i) == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    level++;
                    i += 2;
                } else {
                    i++;
                }
            }
            return -1;
        }
        return p;
    }

    /** {@link #skipOne} repeated: where the next token starts, or -1 at an unclosed block comment. */
    static int skipBlank(String sql, int p, int rules) {
        while (true) {
            int next = skipOne(sql, p, rules);
            if (next <= p) return next;
            p = next;
        }
    }

    static int wordEnd(String sql, int p) {
        int i = p;
        while (i < sql.length() && isWordPart(sql.charAt(i))) i++;
        return i;
    }

    static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
