package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.dialect.Identifiers;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.sql.MultiTableDml.JoinedTable;
import io.jdbcrepl.sql.MultiTableDml.TableAssignment;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.schema.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes a MySQL/MariaDB multi-table UPDATE or DELETE apart into a {@link MultiTableDml}: the parser
 * names the join's tables and how they are joined, the tokens say where the clauses are.
 */
final class MultiTableReader {

    private final String sql;
    private final TokenList tokens;
    private final int end;

    MultiTableReader(String sql, TokenList tokens) {
        this.sql = sql;
        this.tokens = tokens;
        this.end = tokens.statementEnd();
    }

    /**
     * The SQL with the same offsets in a form the parser reads: {@code DELETE FROM a, b USING …} as
     * {@code DELETE a, b FROM …} and {@code DELETE a.* …} as {@code DELETE a …}; other SQL as it is.
     */
    static String parseable(String sql, Dialect dialect) {
        if (!dialect.part(SqlSyntax.class).multiTableDelete()) return sql;
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("DELETE")) return sql;
        while (lexer.next() == SqlLexer.Kind.WORD && lexer.isWordIn("LOW_PRIORITY", "QUICK", "IGNORE")) {
            // modifiers
        }
        char[] out = sql.toCharArray();
        int from = lexer.isWord("FROM") ? lexer.start() : -1;
        if (from >= 0) lexer.next();
        boolean star = false;
        int dot = -1;
        while (lexer.kind() != SqlLexer.Kind.END) {
            if (lexer.kind() == SqlLexer.Kind.WORD && lexer.isWordIn(from >= 0 ? "USING" : "FROM", "WHERE", "ORDER", "LIMIT")) break;
            if (lexer.isSymbol('.')) {
                dot = lexer.start();
            } else if (lexer.isSymbol('*') && dot >= 0) {
                out[dot] = ' ';
                out[lexer.start()] = ' ';
                star = true;
            } else if (!lexer.isName() && !lexer.isSymbol(',')) {
                return sql; // not a list of tables
            } else {
                dot = -1;
            }
            lexer.next();
        }
        boolean using = from >= 0 && lexer.isWord("USING");
        if (using) {
            for (int i = from; i < from + 4; i++) out[i] = ' ';
            "FROM ".getChars(0, 5, out, lexer.start());
        }
        return star || using ? new String(out) : sql;
    }

    /** {@code UPDATE refs SET t.c = v, … [WHERE …]}; {@code refused} for what this cannot take apart. */
    Analysis update(Update u, Opaque refused) {
        if (u.getOrderByElements() != null || u.getLimit() != null || u.getReturningClause() != null
                || u.getFromItem() != null) {
            return refused;
        }
        List<JoinedTable> tables = new ArrayList<>();
        if (!joinedTables(u.getTable(), u.getStartJoins(), false, tables)) return refused;
        int first = require(tokens.first(u.getTable()));
        int set = require(tokens.find(first, end, "SET"));
        int where = u.getWhere() == null ? -1 : require(tokens.find(set + 1, end, "WHERE"));
        int setEnd = where < 0 ? end : where;
        List<TableAssignment> assignments = new ArrayList<>();
        List<JoinedTable> changed = new ArrayList<>();
        for (int[] part : tokens.splitAtCommas(set + 1, setEnd)) {
            int eq = require(tokens.find(part[0], part[1], "="));
            List<String> names = new ArrayList<>();
            for (int k = part[0]; k < eq; k++) {
                if (tokens.is(k, "(")) return new Opaque(Reasons.ROW_SUBQUERY_SET, tables(tables));
                if (!tokens.is(k, ".")) names.add(tokens.image(k));
            }
            if (names.size() < 2) return new Opaque(Reasons.MULTI_TABLE_UNQUALIFIED, tables(tables));
            JoinedTable table = resolve(tables, names.size() > 2 ? names.get(names.size() - 3) : null,
                    names.get(names.size() - 2));
            if (table == null) throw new UnreadableSqlException("SET names " + String.join(".", names)
                    + ", a column of no table of the join");
            if (!changed.contains(table)) changed.add(table);
            assignments.add(new TableAssignment(table, ColumnRef.of(names.get(names.size() - 1)),
                    tokens.fragment(eq + 1, part[1])));
        }
        if (tokens.hasNumberedParameters()) return new Opaque(Reasons.NUMBERED_PARAMETERS, tables(changed));
        return new MultiTableDml(sql, CommandType.UPDATE, u.isModifierIgnore(), tables, changed, assignments,
                tokens.fragment(0, setEnd), where < 0 ? null : tokens.fragment(where + 1, end),
                tokens.fragment(first, set), tokens.parameterCount());
    }

    /** {@code DELETE a, b FROM refs [WHERE …]} (or {@code DELETE FROM a, b USING refs …}, read as that). */
    Analysis delete(Delete d, Opaque refused) {
        if (d.getOrderByElements() != null || d.getLimit() != null || d.getReturningClause() != null
                || d.getUsingList() != null && !d.getUsingList().isEmpty() || d.getTables() == null
                || d.getTables().isEmpty()) {
            return refused;
        }
        List<JoinedTable> tables = new ArrayList<>();
        if (!joinedTables(d.getTable(), d.getJoins(), false, tables)) return refused;
        int first = require(tokens.first(d.getTable()));
        int where = d.getWhere() == null ? -1 : require(tokens.find(first, end, "WHERE"));
        List<JoinedTable> changed = new ArrayList<>();
        for (Table t : d.getTables()) {
            JoinedTable table = resolve(tables, t.getSchemaName(), t.getName());
            if (table == null) throw new UnreadableSqlException("it deletes from " + t.getFullyQualifiedName()
                    + ", which the join does not name");
            if (!changed.contains(table)) changed.add(table);
        }
        if (tokens.hasNumberedParameters()) return new Opaque(Reasons.NUMBERED_PARAMETERS, tables(changed));
        int joinEnd = where < 0 ? end : where;
        return new MultiTableDml(sql, CommandType.DELETE, d.isModifierIgnore(), tables, changed, List.of(),
                tokens.fragment(0, joinEnd), where < 0 ? null : tokens.fragment(where + 1, end),
                tokens.fragment(first, joinEnd), tokens.parameterCount());
    }

    /**
     * Adds the tables of an item and its joins to {@code out}, each marked nullable when it is on the
     * outer side of a LEFT or RIGHT JOIN; subqueries are not tables and are left out. False for
     * items that are neither (a table function).
     */
    private boolean joinedTables(FromItem item, List<Join> joins, boolean nullable, List<JoinedTable> out) {
        int from = out.size();
        if (!joinedTable(item, nullable, out)) return false;
        if (joins == null) return true;
        for (Join j : joins) {
            if (j.isRight() || j.isFull()) {
                for (int i = from; i < out.size(); i++) out.set(i, new JoinedTable(out.get(i).table(), true));
            }
            FromItem right = j.getRightItem() != null ? j.getRightItem() : j.getFromItem();
            if (!joinedTable(right, nullable || j.isLeft() || j.isFull(), out)) return false;
        }
        return true;
    }

    private boolean joinedTable(FromItem item, boolean nullable, List<JoinedTable> out) {
        if (item instanceof Table t) {
            out.add(new JoinedTable(tableRef(t), nullable));
            return true;
        }
        if (item instanceof ParenthesedFromItem p) {
            // (a LEFT JOIN b ON …): every table inside counts as nullable when any join inside is outer
            boolean outer = p.getJoins() != null && p.getJoins().stream().anyMatch(j -> j.isLeft() || j.isRight() || j.isFull());
            return joinedTables(p.getFromItem(), p.getJoins(), nullable || outer, out);
        }
        return item instanceof net.sf.jsqlparser.statement.select.ParenthesedSelect; // a derived table
    }

    private TableRef tableRef(Table t) {
        List<String> parts = new ArrayList<>();
        if (t.getSchemaName() != null) parts.add(t.getSchemaName());
        parts.add(t.getName());
        // the name's tokens only: a table of a join spans its alias too
        int first = tokens.first(t);
        int last = first + 2 * (parts.size() - 1);
        String text = first >= 0 && tokens.is(last, Identifiers.isQuoted(t.getName()) ? tokens.image(last) : t.getName())
                ? tokens.text(first, last + 1) : t.getFullyQualifiedName();
        return TableRef.of(parts, t.getAlias() == null ? null : t.getAlias().getName(), text);
    }

    /**
     * The table of the join a qualifier names: by its alias where it has one, else by its name (and
     * schema, when given). MySQL compares aliases without regard to case, and table names on most servers.
     */
    private static JoinedTable resolve(List<JoinedTable> tables, String schema, String qualifier) {
        String q = Identifiers.unquote(qualifier);
        String s = schema == null ? null : Identifiers.unquote(schema);
        for (JoinedTable j : tables) {
            TableRef t = j.table();
            boolean named = t.alias() != null ? s == null && t.alias().equalsIgnoreCase(q)
                    : t.name().equalsIgnoreCase(q) && (s == null || s.equalsIgnoreCase(t.schema()));
            if (named) return j;
        }
        return null;
    }

    private static List<TableRef> tables(List<JoinedTable> tables) {
        return tables.stream().map(JoinedTable::table).toList();
    }

    private static int require(int index) {
        if (index < 0) throw new UnreadableSqlException("a clause is not where expected");
        return index;
    }
}
