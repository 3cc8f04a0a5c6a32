package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides what a SQL statement means for capture: {@link #mayChangeRows} cheaply, on every statement,
 * and {@link #analyze} thoroughly, once per SQL text (the caller caches).
 */
public final class SqlClassifier {

    /** First keywords of statements that may change rows (or run statements that may). */
    private static final String[] MAY_CHANGE = {
        "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "WITH", "TRUNCATE", "LOAD", "COPY",
        "CALL", "DO", "EXEC", "EXECUTE", "EXPLAIN", "ANALYZE", "ANALYSE", "RUNSCRIPT"};

    /** mayChangeRows does not know the dialect: --, #, // all start comments before the first keyword. */
    private static final int ANY_LINE_COMMENT = SqlLexer.HASH | SqlLexer.SLASHES;

    private SqlClassifier() {
    }

    /**
     * Whether {@code sql} may change rows and must be {@link #analyze analysed}; false means it
     * certainly does not (SELECT, SHOW, SET, BEGIN, COMMIT, DDL, …). Reads the first keyword after
     * whitespace, comments and opening parentheses, without allocating; also true for a JDBC
     * {@code {call …}}, for text with a second statement after a {@code ;}, and for an H2
     * {@code SELECT … FROM FINAL TABLE (UPDATE …)}. EXPLAIN and ANALYZE are true because their
     * ANALYZE forms run the statement. When unsure (an unclosed comment) it says true.
     */
    public static boolean mayChangeRows(String sql) {
        if (sql == null) return false;
        int semicolon = sql.indexOf(';');
        if (semicolon >= 0 && !onlyBlankAfter(sql, semicolon)) return true;
        int p = firstSignificant(sql, ANY_LINE_COMMENT); // block comments read the MySQL way: no nesting
        if (startsChangingStatement(sql, p)) return true;
        // PostgreSQL and H2 nest block comments: read a leading block comment their way too
        return p > 0 && sql.lastIndexOf("/*", p) >= 0
                && startsChangingStatement(sql, firstSignificant(sql, ANY_LINE_COMMENT | SqlLexer.NESTED));
    }

    /** First keywords of DDL that may change a table's columns or key, or drop it. */
    private static final String[] CHANGES_SCHEMA = {"ALTER", "DROP", "RENAME"};

    /**
     * Whether {@code sql} may change the columns or key of a table, or drop one (ALTER, DROP,
     * RENAME), or adds a unique index (which decides the strength of capture's row locks), so that
     * table metadata read before it is stale. Cheap, like {@link #mayChangeRows}.
     */
    public static boolean changesSchema(String sql) {
        if (sql == null) return false;
        int p = firstSignificant(sql, ANY_LINE_COMMENT);
        if (p < 0 || p == sql.length()) return false;
        int end = SqlLexer.wordEnd(sql, p);
        for (String keyword : CHANGES_SCHEMA) {
            if (isWord(sql, p, end, keyword)) return true;
        }
        if (!isWord(sql, p, end, "CREATE")) return false;
        int next = SqlLexer.skipBlank(sql, end, ANY_LINE_COMMENT);
        return next >= 0 && next < sql.length() && isWord(sql, next, SqlLexer.wordEnd(sql, next), "UNIQUE");
    }

    /**
     * Whether {@code sql} creates a table or a sequence ({@code CREATE [UNLOGGED|TEMPORARY|TEMP] TABLE},
     * {@code CREATE SEQUENCE}): where new generated keys may appear (SPEC 8.2).
     */
    public static boolean createsTableOrSequence(String sql) {
        if (sql == null) return false;
        int p = firstSignificant(sql, ANY_LINE_COMMENT);
        if (p < 0 || p == sql.length()) return false;
        int end = SqlLexer.wordEnd(sql, p);
        if (!isWord(sql, p, end, "CREATE")) return false;
        for (int words = 0; words < 3; words++) {
            p = SqlLexer.skipBlank(sql, end, ANY_LINE_COMMENT);
            if (p < 0 || p >= sql.length()) return false;
            end = SqlLexer.wordEnd(sql, p);
            if (isWord(sql, p, end, "TABLE") || isWord(sql, p, end, "SEQUENCE")) return true;
            boolean qualifier = isWord(sql, p, end, "UNLOGGED") || isWord(sql, p, end, "TEMPORARY")
                    || isWord(sql, p, end, "TEMP") || isWord(sql, p, end, "GLOBAL") || isWord(sql, p, end, "LOCAL")
                    || isWord(sql, p, end, "CACHED") || isWord(sql, p, end, "MEMORY");
            if (!qualifier) return false;
        }
        return false;
    }

    /** Whether the word at {@code from..end} is {@code keyword}, in any case. */
    private static boolean isWord(String sql, int from, int end, String keyword) {
        return keyword.length() == end - from && sql.regionMatches(true, from, keyword, 0, end - from);
    }

    /** Whether only blanks, comments and more semicolons follow the semicolon at {@code p}. */
    private static boolean onlyBlankAfter(String sql, int p) {
        while (p >= 0 && p < sql.length() && sql.charAt(p) == ';') {
            p = SqlLexer.skipBlank(sql, p + 1, ANY_LINE_COMMENT);
        }
        return p == sql.length();
    }

    /** Where the first keyword starts, after blanks, comments and opening parentheses; -1 in an unclosed comment. */
    private static int firstSignificant(String sql, int commentRules) {
        int p = SqlLexer.skipBlank(sql, 0, commentRules);
        while (p >= 0 && p < sql.length() && sql.charAt(p) == '(') {
            p = SqlLexer.skipBlank(sql, p + 1, commentRules);
        }
        return p;
    }

    private static boolean startsChangingStatement(String sql, int p) {
        if (p < 0) return true; // an unclosed comment: cannot tell
        if (p == sql.length()) return false;
        if (sql.charAt(p) == '{') return true; // JDBC {call …} / {? = call …}
        int end = SqlLexer.wordEnd(sql, p);
        for (String keyword : MAY_CHANGE) {
            if (isWord(sql, p, end, keyword)) return true;
        }
        return isWord(sql, p, end, "SELECT") && mentionsDeltaTable(sql, end);
    }

    /** H2's data change delta tables: {@code … FROM FINAL|NEW|OLD TABLE (INSERT|UPDATE|DELETE …)}. */
    private static boolean mentionsDeltaTable(String sql, int from) {
        for (int open = sql.indexOf('(', from); open >= 0; open = sql.indexOf('(', open + 1)) {
            int p = open;
            while (p > from && Character.isWhitespace(sql.charAt(p - 1))) p--;
            if (p - 5 >= from && sql.regionMatches(true, p - 5, "TABLE", 0, 5)
                    && (p - 5 == 0 || !SqlLexer.isWordPart(sql.charAt(p - 6)))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses {@code sql} once and says what it is for capture: {@link NotDml}, {@link Opaque} (with
     * a reason the user can act on) or {@link Dml}.
     */
    public static Analysis analyze(String sql, Dialect dialect) {
        if (dialect == null) throw new IllegalArgumentException("dialect is required");
        if (sql == null || sql.isBlank()) return NotDml.INSTANCE;
        StatementSplitter.Split split = StatementSplitter.split(sql, dialect);
        if (split.statements().size() > 1) return several(sql, dialect, split.statements());
        Analysis analysis = one(sql, dialect);
        if (split.executableComment() && analysis instanceof Dml dml) {
            return new Opaque(Reasons.EXECUTABLE_COMMENT, List.of(dml.target()));
        }
        if (split.executableComment() && analysis instanceof MultiTableDml multi) {
            return new Opaque(Reasons.EXECUTABLE_COMMENT, multi.changedTables());
        }
        return analysis;
    }

    private static Analysis several(String sql, Dialect dialect, List<int[]> statements) {
        Set<TableRef> tables = new LinkedHashSet<>();
        boolean changes = false;
        boolean allKnown = true;
        for (int[] range : statements) {
            Analysis a = analyze(sql.substring(range[0], range[1]), dialect);
            if (a instanceof NotDml) continue;
            changes = true;
            if (a instanceof Opaque routine && routine.routine()) return routine; // refused as a whole
            List<TableRef> named = a instanceof Dml dml ? List.of(dml.target())
                    : a instanceof MultiTableDml multi ? multi.changedTables()
                    : a instanceof WithDml with ? with.refusal().tablesNamed() : ((Opaque) a).tablesNamed();
            allKnown &= !named.isEmpty();
            tables.addAll(named);
        }
        if (!changes) return NotDml.INSTANCE;
        return new Opaque(Reasons.SEVERAL_STATEMENTS, allKnown ? List.copyOf(tables) : List.of());
    }

    private static Analysis one(String sql, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        do {
            lexer.next(); // (SELECT …) UNION (SELECT …): the first keyword is inside
        } while (lexer.isSymbol('('));
        if (lexer.isSymbol('{')) return callEscape(lexer, dialect);
        if (lexer.kind() != SqlLexer.Kind.WORD) return NotDml.INSTANCE;
        int at = lexer.start();
        String keyword = lexer.text().toUpperCase(Locale.ROOT);
        return switch (keyword) {
            case "INSERT", "UPDATE", "DELETE" -> dml(sql, dialect, keyword);
            case "WITH" -> WithAnalysis.analyze(sql, dialect);
            case "SELECT" -> deltaTable(sql, dialect, at);
            case "MERGE" -> new Opaque(Reasons.MERGE, TargetGuess.tables(sql, at, dialect));
            case "REPLACE", "UPSERT" -> new Opaque(Reasons.REPLACE, TargetGuess.tables(sql, at, dialect));
            case "TRUNCATE" -> new Opaque(Reasons.TRUNCATE, TargetGuess.tables(sql, at, dialect));
            case "CALL" -> dialect.part(SqlSyntax.class).callReadsOnly(sql) ? NotDml.INSTANCE : Opaque.routine(Reasons.CALL);
            case "EXEC", "EXECUTE" -> new Opaque(Reasons.EXECUTE, List.of());
            case "DO" -> Opaque.routine(Reasons.DO);
            case "RUNSCRIPT" -> new Opaque(Reasons.RUNSCRIPT, List.of());
            case "COPY" -> copyFrom(lexer)
                    ? new Opaque(Reasons.COPY, TargetGuess.tables(sql, at, dialect)) : NotDml.INSTANCE;
            case "LOAD" -> lexer.next() == SqlLexer.Kind.WORD && lexer.isWordIn("DATA", "XML")
                    ? new Opaque(Reasons.LOAD_DATA, TargetGuess.tables(sql, at, dialect)) : NotDml.INSTANCE;
            case "EXPLAIN", "ANALYZE", "ANALYSE" -> ExplainAnalysis.analyze(sql, dialect, lexer);
            default -> NotDml.INSTANCE;
        };
    }

    /**
     * The JDBC escapes {@code {call f(…)}} and {@code {? = call f(…)}} are what the vendor's driver
     * turns them into: a query of the function where it makes a SELECT of them ({@link SqlSyntax}),
     * else a CALL.
     */
    private static Analysis callEscape(SqlLexer lexer, Dialect dialect) {
        SqlSyntax syntax = dialect.part(SqlSyntax.class);
        lexer.next();
        boolean function = lexer.isSymbol('?');
        if (function) {
            lexer.next(); // =
            lexer.next();
        }
        boolean query = function ? syntax.functionEscapeIsQuery() : lexer.isWord("CALL") && syntax.callEscapeIsQuery();
        return query ? NotDml.INSTANCE : Opaque.routine(Reasons.CALL);
    }

    static Analysis dml(String sql, Dialect dialect, String keyword) {
        String input = sql;
        boolean only = false;
        if (dialect.part(SqlSyntax.class).onlyKeyword()) { // JSqlParser does not know UPDATE ONLY t / DELETE FROM ONLY t
            int onlyAt = onlyKeyword(sql, dialect);
            if (onlyAt >= 0) {
                input = sql.substring(0, onlyAt) + "    " + sql.substring(onlyAt + 4);
                only = true;
            }
        }
        try {
            if (keyword.equals("DELETE")) input = MultiTableReader.parseable(input, dialect); // same offsets
            Parsed parsed = Parsed.parse(input, sql, dialect);
            return new DmlReader(sql, dialect, parsed.tokens(), only).read(parsed.statement());
        } catch (UnreadableSqlException e) {
            return new Opaque(Reasons.unparsed(keyword, e.getMessage()), TargetGuess.tables(sql, 0, dialect));
        }
    }

    /** The offset of ONLY in {@code UPDATE ONLY t} or {@code DELETE FROM ONLY t}, or -1. */
    private static int onlyKeyword(String sql, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        lexer.next();
        if (lexer.isWord("DELETE") && !(lexer.next() == SqlLexer.Kind.WORD && lexer.isWord("FROM"))) return -1;
        lexer.next();
        return lexer.isWord("ONLY") ? lexer.start() : -1;
    }

    /**
     * SELECT: a query, unless it reads an H2 data change delta table, {@code FINAL TABLE (UPDATE …)}:
     * the simple form over an INSERT's FINAL or a DELETE's OLD table is that statement with the
     * select list as its RETURNING; any other is opaque.
     */
    private static Analysis deltaTable(String sql, Dialect dialect, int from) {
        if (dialect.part(SqlSyntax.class).deltaTables()) {
            Dml simple = deltaQuery(sql, dialect, from);
            if (simple != null) return simple;
        }
        SqlLexer lexer = new SqlLexer(sql, dialect, from);
        boolean table = false;
        boolean open = false;
        while (lexer.next() != SqlLexer.Kind.END) {
            if (open && lexer.isWordIn("INSERT", "UPDATE", "DELETE", "MERGE")) {
                return new Opaque(Reasons.DELTA_TABLE, TargetGuess.tables(sql, lexer.start(), dialect));
            }
            open = table && lexer.isSymbol('(');
            table = lexer.isWord("TABLE");
        }
        return NotDml.INSTANCE;
    }

    /**
     * {@code SELECT items FROM FINAL TABLE (INSERT …) [[AS] alias]} or the same with {@code OLD TABLE
     * (DELETE …)}, nothing else, no parameter in the items; else null.
     */
    private static Dml deltaQuery(String sql, Dialect dialect, int selectAt) {
        SqlLexer lexer = new SqlLexer(sql, dialect, selectAt);
        lexer.next(); // SELECT
        List<SqlFragment> items = new ArrayList<>();
        boolean all = false;
        int depth = 0;
        int itemStart = -1;
        int itemEnd = -1;
        while (true) {
            if (lexer.next() == SqlLexer.Kind.END || lexer.isSymbol('?')) return null;
            boolean boundary = depth == 0 && (lexer.isWord("FROM") || lexer.isSymbol(','));
            if (boundary) {
                if (itemStart < 0) return null;
                String item = sql.substring(itemStart, itemEnd);
                all |= item.endsWith("*");
                items.add(SqlFragment.of(item));
                itemStart = -1;
                if (lexer.isWord("FROM")) break;
                continue;
            }
            if (lexer.isSymbol('(')) depth++;
            else if (lexer.isSymbol(')')) depth--;
            if (itemStart < 0) itemStart = lexer.start();
            itemEnd = lexer.end();
        }
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWordIn("FINAL", "OLD")) return null;
        String kind = lexer.text().toUpperCase(Locale.ROOT);
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("TABLE")) return null;
        if (lexer.next() != SqlLexer.Kind.SYMBOL || !lexer.isSymbol('(')) return null;
        int open = lexer.end();
        depth = 1;
        while (depth > 0) {
            if (lexer.next() == SqlLexer.Kind.END) return null;
            if (lexer.isSymbol('(')) depth++;
            else if (lexer.isSymbol(')')) depth--;
        }
        int close = lexer.start();
        int aliasStart = lexer.end();
        List<String> words = new ArrayList<>();
        while (lexer.next() != SqlLexer.Kind.END && !lexer.isSymbol(';')) {
            if (words.size() == 2 || !lexer.isName()) return null;
            words.add(lexer.kind() == SqlLexer.Kind.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "");
        }
        // [AS] alias, and nothing that goes on with the query (WHERE, ORDER BY, a join …)
        if (words.size() == 2 && !words.get(0).equals("AS")) return null;
        String last = words.isEmpty() ? "" : words.get(words.size() - 1);
        if (Set.of("AS", "WHERE", "ORDER", "GROUP", "HAVING", "LIMIT", "FETCH", "OFFSET", "UNION", "EXCEPT", "MINUS",
                "INTERSECT", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "FOR", "WINDOW", "QUALIFY")
                .contains(last)) {
            return null;
        }
        String alias = sql.substring(aliasStart, lexer.kind() == SqlLexer.Kind.END ? sql.length() : lexer.start()).strip();
        if (alias.endsWith(";")) alias = alias.substring(0, alias.length() - 1).strip();
        String inner = sql.substring(open, close);
        String expected = kind.equals("FINAL") ? "INSERT" : "DELETE";
        SqlLexer first = new SqlLexer(inner, dialect, 0);
        if (first.next() != SqlLexer.Kind.WORD || !first.isWord(expected)) return null;
        if (!(dml(inner, dialect, expected) instanceof Dml dml) || !dml.returning().isEmpty()) return null;
        return dml.inDeltaQuery(items, all, new Dml.DeltaTable(kind, alias));
    }

    /** {@code COPY t [(columns)] FROM …} loads rows; {@code COPY t TO …} and {@code COPY (query) TO …} do not. */
    private static boolean copyFrom(SqlLexer lexer) {
        int depth = 0;
        while (lexer.next() != SqlLexer.Kind.END) {
            if (lexer.isSymbol('(')) depth++;
            else if (lexer.isSymbol(')')) depth--;
            else if (depth == 0 && lexer.isWord("FROM")) return true;
            else if (depth == 0 && lexer.isWord("TO")) return false;
        }
        return false;
    }
}
