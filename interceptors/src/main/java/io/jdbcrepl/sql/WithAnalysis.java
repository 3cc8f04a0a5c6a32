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
 * changes rows (PostgreSQL's data-modifying CTEs); those are opaque, naming the tables they change.
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
                    ? new Opaque(Reasons.unparsed("WITH", e.getMessage()), List.of()) : NotDml.INSTANCE;
        }
        Statement st = parsed.statement();
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
        return new Opaque(reason, changed.stream().map(WithAnalysis::reported).toList());
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
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        boolean lockingClause = false; // FOR [NO KEY] UPDATE locks rows, changes none
        while (lexer.next() != SqlLexer.Kind.END) {
            if (lexer.isWordIn("DELETE", "MERGE") || (lexer.isWord("UPDATE") && !lockingClause)) return true;
            // INSERT(…) is MySQL's string function
            if (lexer.isWord("INSERT") && lexer.next() != SqlLexer.Kind.END && !lexer.isSymbol('(')) return true;
            lockingClause = lexer.isWordIn("FOR", "KEY");
        }
        return false;
    }
}
