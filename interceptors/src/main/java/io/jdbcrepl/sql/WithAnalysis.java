package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.ParenthesedStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.delete.ParenthesedDelete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.ParenthesedInsert;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.ParenthesedUpdate;
import net.sf.jsqlparser.statement.update.Update;

import java.util.ArrayList;
import java.util.List;

/**
 * Statements that start with WITH: a query unless the main statement or one of the WITH queries
 * changes rows (PostgreSQL's data-modifying CTEs). Those are a {@link WithDml} when each data
 * change is a single-table INSERT, UPDATE or DELETE that {@link DmlReader} reads, else opaque,
 * naming the tables they change.
 */
final class WithAnalysis {

    private WithAnalysis() {
    }

    /** WITH …: opaque when the main statement or a WITH query changes rows, else a query. */
    static Analysis analyze(String sql, Dialect dialect) {
        Parsed parsed;
        try {
            parsed = Parsed.parse(sql, sql, dialect);
        } catch (UnreadableSqlException e) {
            return namesDataChange(sql, dialect)
                    ? new Opaque(Reasons.unparsed("WITH", e.getMessage()), guessedTables(sql, dialect)) : NotDml.INSTANCE;
        }
        Statement st = parsed.statement();
        if (st instanceof net.sf.jsqlparser.statement.merge.Merge merge) { // WITH … MERGE
            return new Opaque(Reasons.MERGE, List.of(reported(merge.getTable())));
        }
        List<Table> changedByWith = new ArrayList<>();
        List<WithItem<?>> items = st instanceof Select s ? s.getWithItemsList()
                : st instanceof Insert i ? i.getWithItemsList()
                : st instanceof Update u ? u.getWithItemsList()
                : st instanceof Delete d ? d.getWithItemsList() : null;
        if (items != null) {
            for (WithItem<?> item : items) {
                Table t = changedTable(item.getParenthesedStatement());
                if (t != null) changedByWith.add(t);
            }
        }
        Table main = st instanceof Insert i ? i.getTable() : st instanceof Update u ? u.getTable()
                : st instanceof Delete d ? d.getTable() : null;
        if (main == null && changedByWith.isEmpty()) return NotDml.INSTANCE;
        List<Table> changed = new ArrayList<>(changedByWith);
        if (main != null) changed.add(main);
        String reason = changedByWith.isEmpty() ? Reasons.WITH_DML : Reasons.DATA_MODIFYING_WITH;
        Opaque refusal = new Opaque(reason, changed.stream().map(WithAnalysis::reported).toList());
        try {
            WithDml split = split(sql, dialect, refusal);
            return split == null ? refusal : split;
        } catch (Refused e) {
            return new Opaque(e.reason, refusal.tablesNamed());
        }
    }

    /** A part that cannot be captured: the whole statement is refused with its reason. */
    private static final class Refused extends RuntimeException {
        final String reason;

        Refused(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }

    /**
     * {@code WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (query), … main} taken apart;
     * null for any other shape (SEARCH or CYCLE clauses).
     */
    private static WithDml split(String sql, Dialect dialect, Opaque refusal) {
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        lexer.next(); // WITH
        int headEnd = lexer.end();
        lexer.next();
        if (lexer.isWord("RECURSIVE")) {
            headEnd = lexer.end();
            lexer.next();
        }
        List<WithDml.Part> queries = new ArrayList<>();
        while (true) {
            if (!lexer.isName()) return null;
            int headerStart = lexer.start();
            lexer.next();
            if (lexer.isSymbol('(')) { // the column list
                if (closing(lexer) < 0) return null;
                lexer.next();
            }
            if (!lexer.isWord("AS")) return null;
            lexer.next();
            if (lexer.isWord("NOT")) lexer.next();
            if (lexer.isWord("MATERIALIZED")) lexer.next();
            if (!lexer.isSymbol('(')) return null;
            String header = sql.substring(headerStart, lexer.start()).strip();
            int bodyStart = lexer.end();
            int bodyEnd = closing(lexer);
            if (bodyEnd < 0) return null;
            queries.add(part(header, sql.substring(bodyStart, bodyEnd), dialect));
            lexer.next();
            if (!lexer.isSymbol(',')) break;
            lexer.next();
        }
        if (lexer.kind() != SqlLexer.Kind.WORD && !lexer.isSymbol('(')) return null;
        WithDml.Part main = part(null, sql.substring(lexer.start()), dialect);
        // an UPDATE … FROM or DELETE … USING of a WITH query reads that query's rows, not a table's
        java.util.Set<String> names = new java.util.HashSet<>();
        for (WithDml.Part q : queries) names.add(firstName(q.header(), dialect));
        queries.replaceAll(q -> q.dml() == null ? q : new WithDml.Part(q.header(), q.text(), q.dml().inWith(names)));
        if (main.dml() != null) main = new WithDml.Part(null, main.text(), main.dml().inWith(names));
        int parameters = 0;
        SqlLexer counter = new SqlLexer(sql, dialect, 0);
        while (counter.next() != SqlLexer.Kind.END) if (counter.isSymbol('?')) parameters++;
        return new WithDml(sql, sql.substring(0, headEnd) + " ", queries, main, parameters, refusal);
    }

    /** The name a WITH query's header starts with, lower case. */
    private static String firstName(String header, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(header, dialect, 0);
        lexer.next();
        return lexer.text().toLowerCase(java.util.Locale.ROOT);
    }

    /** From an opening parenthesis to its closing one: the closing one's offset, or -1 when it is missing. */
    private static int closing(SqlLexer lexer) {
        int depth = 1;
        while (depth > 0) {
            if (lexer.next() == SqlLexer.Kind.END) return -1;
            if (lexer.isSymbol('(')) depth++;
            else if (lexer.isSymbol(')')) depth--;
        }
        return lexer.start();
    }

    /** A WITH query or the main statement: an INSERT, UPDATE or DELETE read as one, else a query. */
    private static WithDml.Part part(String header, String text, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(text, dialect, 0);
        lexer.next();
        if (lexer.kind() == SqlLexer.Kind.WORD && lexer.isWordIn("INSERT", "UPDATE", "DELETE")) {
            Analysis a = SqlClassifier.dml(text, dialect, lexer.text().toUpperCase(java.util.Locale.ROOT));
            if (a instanceof Dml dml && dml.delta() == null) return new WithDml.Part(header, text, dml);
            throw new Refused(a instanceof Opaque o ? o.reason() : Reasons.DATA_MODIFYING_WITH);
        }
        if (namesDataChange(text, dialect)) throw new Refused(Reasons.DATA_MODIFYING_WITH); // nested, or MERGE
        return new WithDml.Part(header, text, null);
    }

    private static Table changedTable(ParenthesedStatement statement) {
        if (statement instanceof ParenthesedInsert i) return i.getInsert().getTable();
        if (statement instanceof ParenthesedUpdate u) return u.getUpdate().getTable();
        if (statement instanceof ParenthesedDelete d) return d.getDelete().getTable();
        return null;
    }

    private static TableRef reported(Table t) {
        List<String> parts = new ArrayList<>();
        if (t.getSchemaName() != null) parts.add(t.getSchemaName());
        parts.add(t.getName());
        return TableRef.of(parts, t.getAlias() == null ? null : t.getAlias().getName(), t.getFullyQualifiedName());
    }

    /** For SQL the parser cannot read: an INSERT, UPDATE, DELETE or MERGE keyword anywhere in it. */
    private static boolean namesDataChange(String sql, Dialect dialect) {
        return !dataChanges(sql, dialect).isEmpty();
    }

    /** The tables the data changes in {@code sql} name, or an empty list when one of them cannot be told. */
    private static List<TableRef> guessedTables(String sql, Dialect dialect) {
        List<TableRef> tables = new ArrayList<>();
        for (int at : dataChanges(sql, dialect)) {
            List<TableRef> named = TargetGuess.tables(sql, at, dialect);
            if (named.isEmpty()) return List.of();
            tables.addAll(named);
        }
        return tables;
    }

    /** The offsets of the INSERT, UPDATE, DELETE and MERGE keywords in {@code sql} that change rows. */
    private static List<Integer> dataChanges(String sql, Dialect dialect) {
        List<Integer> out = new ArrayList<>();
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        boolean lockingClause = false; // FOR [NO KEY] UPDATE locks rows, changes none
        while (lexer.next() != SqlLexer.Kind.END) {
            int at = lexer.start();
            if (lexer.isWordIn("DELETE", "MERGE") || (lexer.isWord("UPDATE") && !lockingClause)) out.add(at);
            // INSERT(…) is MySQL's string function
            if (lexer.isWord("INSERT") && lexer.next() != SqlLexer.Kind.END && !lexer.isSymbol('(')) out.add(at);
            lockingClause = lexer.isWordIn("FOR", "KEY");
        }
        return out;
    }
}
