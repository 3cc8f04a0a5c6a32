package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Identifiers;

import io.jdbcrepl.dialect.Dialect;

import io.jdbcrepl.lcr.CommandType;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Takes a parsed INSERT, UPDATE or DELETE apart into a {@link Dml}. The parser says which clauses
 * there are; the tokens say where each begins and ends, so that every text is cut from the SQL as
 * written. MySQL's multi-table forms go to {@link MultiTableReader}; elsewhere they come back {@link Opaque}.
 */
final class DmlReader {

    private static final String[] SET = {"SET"};
    private static final String[] FROM = {"FROM"};
    private static final String[] USING = {"USING"};
    private static final String[] WHERE = {"WHERE"};
    private static final String[] ORDER_BY = {"ORDER", "BY"};
    private static final String[] LIMIT = {"LIMIT"};
    private static final String[] RETURNING = {"RETURNING"};
    private static final String[] ON_CONFLICT = {"ON", "CONFLICT"};
    private static final String[] ON_DUPLICATE_KEY_UPDATE = {"ON", "DUPLICATE", "KEY", "UPDATE"};

    private final String sql;
    private final Dialect dialect;
    private final TokenList tokens;
    private final boolean only;
    private final int end;

    DmlReader(String sql, Dialect dialect, TokenList tokens, boolean only) {
        this.sql = sql;
        this.dialect = dialect;
        this.tokens = tokens;
        this.only = only;
        this.end = tokens.statementEnd();
    }

    /** @throws UnreadableSqlException when the tokens do not line up with the parsed statement */
    Analysis read(Statement statement) {
        if (statement instanceof Update u) return update(u);
        if (statement instanceof Delete d) return delete(d);
        if (statement instanceof Insert i) return insert(i);
        throw new UnreadableSqlException("it reads as " + statement.getClass().getSimpleName());
    }

    private Analysis update(Update u) {
        List<Table> others = new ArrayList<>(joinedTables(u.getStartJoins()));
        if (u.getFromItem() == null) others.addAll(joinedTables(u.getJoins()));
        if (!others.isEmpty() || hasAny(u.getStartJoins())) {
            others.add(0, u.getTable());
            Opaque refused = new Opaque(Reasons.MULTI_TABLE_UPDATE, others.stream().map(this::looseTable).toList());
            return multiTable() ? new MultiTableReader(sql, tokens).update(u, refused) : refused;
        }
        TableRef target = table(u.getTable());
        if (rowSubquery(u.getUpdateSets())) return new Opaque(Reasons.ROW_SUBQUERY_SET, List.of(target));
        List<FromRelation> relations = new ArrayList<>();
        if (u.getFromItem() != null && !relations(u.getFromItem(), u.getJoins(), relations)) {
            return new Opaque(Reasons.FROM_LIST, List.of(target));
        }
        if (tokens.hasNumberedParameters()) return new Opaque(Reasons.NUMBERED_PARAMETERS, List.of(target));
        Clauses c = locate(tokens.last(u.getTable()) + 1, SET, u.getFromItem() != null ? FROM : null,
                u.getWhere() != null ? WHERE : null, hasAny(u.getOrderByElements()) ? ORDER_BY : null,
                u.getLimit() != null ? LIMIT : null, u.getReturningClause() != null ? RETURNING : null);
        List<Assignment> assignments = assignments(c.from(0), c.to(0), u.getUpdateSets().size(), target);
        return new Dml(sql, CommandType.UPDATE, target, only, u.isModifierIgnore(), columnsOf(assignments),
                fragmentOf(c, 0), assignments, null, null, null, fragmentOf(c, 1), relations, fragmentOf(c, 2),
                hasSelect(c, 2),
                fragmentOf(c, 3), fragmentOf(c, 4), returning(c, 5), returnsAll(c, 5, target), tokens.parameterCount());
    }

    private Analysis delete(Delete d) {
        boolean namesItsOnlyTable = namesItsOnlyTable(d);
        if (!namesItsOnlyTable && (hasAny(d.getTables()) || hasAny(d.getJoins()))) {
            List<Table> changed = hasAny(d.getTables()) ? d.getTables() : List.of(d.getTable());
            Opaque refused = new Opaque(Reasons.MULTI_TABLE_DELETE, changed.stream().map(this::looseTable).toList());
            return multiTable() ? new MultiTableReader(sql, tokens).delete(d, refused) : refused;
        }
        TableRef target = table(d.getTable());
        if (namesItsOnlyTable && target.alias() == null) {
            // DELETE t FROM t: its clauses call the table t, as they would an alias (the plan then reads
            // the rows under that name and deletes them by key, as for DELETE x FROM t x)
            target = new TableRef(target.schema(), target.name(), target.name(), target.schemaQuoted(),
                    target.nameQuoted(), target.sqlText());
        }
        if (tokens.hasNumberedParameters()) return new Opaque(Reasons.NUMBERED_PARAMETERS, List.of(target));
        List<FromRelation> relations = new ArrayList<>();
        if (d.getUsingList() != null) {
            for (Table t : d.getUsingList()) relations.add(relation(t));
        }
        Clauses c = locate(tokens.last(d.getTable()) + 1, hasAny(d.getUsingList()) ? USING : null,
                d.getWhere() != null ? WHERE : null, hasAny(d.getOrderByElements()) ? ORDER_BY : null,
                d.getLimit() != null ? LIMIT : null, d.getReturningClause() != null ? RETURNING : null);
        return new Dml(sql, CommandType.DELETE, target, only, d.isModifierIgnore(), List.of(), null, List.of(),
                null, null, null, fragmentOf(c, 0), relations, fragmentOf(c, 1), hasSelect(c, 1), fragmentOf(c, 2),
                fragmentOf(c, 3), returning(c, 4), returnsAll(c, 4, target), tokens.parameterCount());
    }

    /**
     * MySQL/MariaDB {@code DELETE x FROM t x WHERE …} (or {@code DELETE t FROM t …}): the multi-table
     * syntax deleting from the one table it reads, which is how Hibernate 6 writes a bulk delete
     * there (MariaDB before 11.6 takes no alias in {@code DELETE FROM t x}). That syntax takes no
     * ORDER BY or LIMIT.
     */
    private boolean namesItsOnlyTable(Delete d) {
        if (!dialect.part(SqlSyntax.class).multiTableDelete() || d.getTables() == null || d.getTables().size() != 1 || hasAny(d.getJoins())
                || hasAny(d.getUsingList()) || hasAny(d.getOrderByElements()) || d.getLimit() != null) {
            return false;
        }
        Table deleted = d.getTables().get(0);
        Table read = d.getTable();
        if (read == null) return false;
        if (read.getAlias() != null) {
            return deleted.getSchemaName() == null && sameName(deleted.getName(), read.getAlias().getName());
        }
        return sameName(deleted.getName(), read.getName())
                && (deleted.getSchemaName() == null || sameName(deleted.getSchemaName(), read.getSchemaName()));
    }

    /** The MySQL family's multi-table UPDATE and DELETE, which {@link MultiTableReader} takes apart. */
    private boolean multiTable() {
        return dialect.part(SqlSyntax.class).multiTableDelete();
    }

    /** MySQL compares aliases without regard to case (and table names too on most servers). */
    private static boolean sameName(String a, String b) {
        return a != null && b != null && Identifiers.unquote(a).equalsIgnoreCase(Identifiers.unquote(b));
    }

    private Analysis insert(Insert i) {
        Table table = i.getTable();
        TableRef target = table(table);
        boolean conflictUpdate = i.getConflictAction() != null && hasAny(i.getConflictAction().getUpdateSets());
        if (rowSubquery(i.getDuplicateUpdateSets())
                || (conflictUpdate && rowSubquery(i.getConflictAction().getUpdateSets()))) {
            return new Opaque(Reasons.ROW_SUBQUERY_SET, List.of(target));
        }
        if (tokens.hasNumberedParameters()) return new Opaque(Reasons.NUMBERED_PARAMETERS, List.of(target));
        int cursor = tokens.last(table) + 1;
        if (table.getAlias() != null) cursor += tokens.is(cursor, "AS") ? 2 : 1;
        if (tokens.is(cursor, "PARTITION")) cursor = after(cursor + 1);
        List<ColumnRef> columns = new ArrayList<>();
        if (i.getColumns() != null && !i.getColumns().isEmpty()) {
            for (Column column : i.getColumns()) columns.add(ColumnRef.of(column.getColumnName()));
            cursor = after(cursor);
        }
        // OVERRIDING SYSTEM|USER VALUE stays in the source's text, which capture runs as written: an
        // INSERT that gives a GENERATED ALWAYS identity column its value keeps working (SPEC 8.2)
        int textStart = cursor;
        if (tokens.is(cursor, "OVERRIDING")) cursor += 3;
        Clauses c = locate(cursor, i.getConflictAction() != null ? ON_CONFLICT : null,
                i.isUseDuplicate() ? ON_DUPLICATE_KEY_UPDATE : null, i.getReturningClause() != null ? RETURNING : null);
        int sourceEnd = c.firstKeyword();
        InsertSource source;
        if (i.isOnlyDefaultValues()) {
            source = new InsertSource.DefaultValues(tokens.fragment(textStart, sourceEnd));
        } else if (hasAny(i.getSetUpdateSets())) { // MySQL: INSERT INTO t SET a = 1, b = ?
            expect(cursor, "SET");
            List<Assignment> set = assignments(cursor + 1, sourceEnd, i.getSetUpdateSets().size(), target);
            columns = columnsOf(set);
            source = new InsertSource.Values(tokens.fragment(cursor, sourceEnd),
                    List.of(set.stream().map(Assignment::value).toList()));
        } else if (i.getSelect() instanceof Values) {
            source = new InsertSource.Values(tokens.fragment(textStart, sourceEnd), rows(cursor, sourceEnd));
        } else if (i.getSelect() != null) {
            source = new InsertSource.Query(tokens.fragment(textStart, sourceEnd));
        } else {
            throw new UnreadableSqlException("its rows come from neither VALUES nor a query");
        }
        OnConflict onConflict = c.has(0) ? onConflict(i, target, c.keyword(0), c.from(0), c.to(0)) : null;
        OnDuplicateKeyUpdate duplicate = c.has(1) ? new OnDuplicateKeyUpdate(fragmentOf(c, 1),
                assignments(c.from(1), c.to(1), i.getDuplicateUpdateSets().size(), target)) : null;
        return new Dml(sql, CommandType.INSERT, target, false, i.isModifierIgnore(), columns, null, List.of(),
                source, onConflict, duplicate, null, List.of(), null, false, null, null,
                returning(c, 2), returnsAll(c, 2, target), tokens.parameterCount());
    }

    /** {@code VALUES (…), ROW(…), …}: each row's expressions. */
    private List<List<SqlFragment>> rows(int from, int to) {
        if (!tokens.is(from, "VALUES") && !tokens.is(from, "VALUE")) {
            throw new UnreadableSqlException("VALUES is not where expected");
        }
        List<List<SqlFragment>> rows = new ArrayList<>();
        for (int[] row : tokens.splitAtCommas(from + 1, to)) {
            int open = tokens.is(row[0], "ROW") ? row[0] + 1 : row[0];
            if (!tokens.is(open, "(") || tokens.closing(open) != row[1] - 1) {
                throw new UnreadableSqlException("a VALUES row is not in parentheses");
            }
            rows.add(list(open + 1, row[1] - 1));
        }
        return rows;
    }

    private OnConflict onConflict(Insert i, TableRef target, int keyword, int from, int to) {
        List<ColumnRef> targetColumns = new ArrayList<>();
        String constraint = null;
        SqlFragment targetWhere = null;
        int p = from;
        if (tokens.is(p, "(")) {
            for (String name : i.getConflictTarget().getIndexColumnNames()) targetColumns.add(ColumnRef.of(name));
            p = after(p);
            if (tokens.is(p, "WHERE")) {
                int doAt = require(tokens.find(p, to, "DO"), "DO");
                targetWhere = tokens.fragment(p + 1, doAt);
                p = doAt;
            }
        } else if (tokens.is(p, "ON") && tokens.is(p + 1, "CONSTRAINT")) {
            constraint = tokens.image(p + 2);
            p += 3;
        }
        expect(p, "DO");
        if (tokens.is(p + 1, "NOTHING")) {
            return new OnConflict(tokens.fragment(keyword, to), targetColumns, constraint, targetWhere, true,
                    List.of(), null);
        }
        expect(p + 1, "UPDATE");
        expect(p + 2, "SET");
        int setFrom = p + 3;
        int where = i.getConflictAction().getWhereExpression() == null ? -1
                : require(tokens.find(setFrom, to, "WHERE"), "WHERE");
        List<Assignment> set = assignments(setFrom, where < 0 ? to : where,
                i.getConflictAction().getUpdateSets().size(), target);
        return new OnConflict(tokens.fragment(keyword, to), targetColumns, constraint, targetWhere, false, set,
                where < 0 ? null : tokens.fragment(where + 1, to));
    }

    /** A SET list: {@code a = x, t.b = ?, (c, d) = (y, ROW(…)) …}, one assignment per column. */
    private List<Assignment> assignments(int from, int to, int expected, TableRef target) {
        List<int[]> parts = tokens.splitAtCommas(from, to);
        if (parts.size() != expected) throw new UnreadableSqlException("its SET list does not split into " + expected);
        List<Assignment> assignments = new ArrayList<>();
        for (int[] part : parts) {
            int eq = require(tokens.find(part[0], part[1], "="), "=");
            if (!tokens.is(part[0], "(")) {
                assignments.add(new Assignment(column(part[0], eq, target), tokens.fragment(eq + 1, part[1])));
                continue;
            }
            List<int[]> names = tokens.splitAtCommas(part[0] + 1, after(part[0]) - 1);
            int open = tokens.is(eq + 1, "ROW") ? eq + 2 : eq + 1;
            if (!tokens.is(open, "(") || after(open) != part[1]) {
                throw new UnreadableSqlException("a SET row is not in parentheses");
            }
            List<SqlFragment> values = list(open + 1, part[1] - 1);
            if (values.size() != names.size()) {
                throw new UnreadableSqlException("a SET row has not one value per column");
            }
            for (int k = 0; k < names.size(); k++) {
                assignments.add(new Assignment(column(names.get(k)[0], names.get(k)[1], target), values.get(k)));
            }
        }
        return assignments;
    }

    /**
     * The column a SET target names: {@code t.a} is column a of the target t (MySQL, H2); otherwise
     * PostgreSQL reads {@code a.b} as field b of composite column a (and {@code a[1]} as an element
     * of a), the others as column b of table a.
     */
    private ColumnRef column(int from, int to, TableRef target) {
        List<String> parts = new ArrayList<>();
        for (int k = from; k < to && !tokens.is(k, "["); k++) {
            if (!tokens.is(k, ".")) parts.add(tokens.image(k));
        }
        if (parts.isEmpty()) throw new UnreadableSqlException("a SET target names no column");
        boolean qualified = parts.size() > 1 && Identifiers.unquote(parts.get(0)).equalsIgnoreCase(target.reference());
        if (qualified) return ColumnRef.of(parts.get(1));
        return ColumnRef.of(dialect.part(SqlSyntax.class).compositeFieldTargets() ? parts.get(0) : parts.get(parts.size() - 1));
    }

    /** The comma-separated items of [from, to), each as a fragment; empty for an empty range. */
    private List<SqlFragment> list(int from, int to) {
        if (from >= to) return List.of();
        return tokens.splitAtCommas(from, to).stream().map(r -> tokens.fragment(r[0], r[1])).toList();
    }

    private List<SqlFragment> returning(Clauses c, int k) {
        return c.has(k) ? list(c.from(k), c.to(k)) : List.of();
    }

    private boolean returnsAll(Clauses c, int k, TableRef target) {
        for (SqlFragment item : returning(c, k)) {
            String t = item.text();
            if (t.equals("*")) return true;
            if (t.endsWith(".*")) {
                String qualifier = Identifiers.unquote(t.substring(0, t.length() - 2).strip());
                if (qualifier.equalsIgnoreCase(target.reference())) return true;
            }
        }
        return false;
    }

    private static List<ColumnRef> columnsOf(List<Assignment> assignments) {
        return assignments.stream().map(Assignment::column).toList();
    }

    private TableRef table(Table t) {
        int first = tokens.first(t);
        int last = tokens.last(t);
        if (first < 0 || last < first) throw new UnreadableSqlException("the position of its table is unknown");
        return tableRef(t, tokens.text(first, last + 1));
    }

    /** For tables that are only reported: the text as written when known, else as the parser prints it. */
    private TableRef looseTable(Table t) {
        int first = tokens.first(t);
        int last = tokens.last(t);
        return tableRef(t, first >= 0 && last >= first ? tokens.text(first, last + 1) : t.getFullyQualifiedName());
    }

    private static TableRef tableRef(Table t, String sqlText) {
        List<String> parts = new ArrayList<>();
        if (t.getSchemaName() != null) parts.add(t.getSchemaName());
        parts.add(t.getName());
        return TableRef.of(parts, t.getAlias() == null ? null : t.getAlias().getName(), sqlText);
    }

    private static List<Table> joinedTables(List<Join> joins) {
        List<Table> tables = new ArrayList<>();
        if (joins != null) {
            for (Join j : joins) {
                FromItem item = j.getRightItem() != null ? j.getRightItem() : j.getFromItem();
                if (item instanceof Table t) tables.add(t);
            }
        }
        return tables;
    }

    /**
     * Adds the names of the relations of a FROM list (an item and its joins) to {@code out}: each
     * table's alias or name, each subquery's or VALUES list's alias, the tables inside parenthesised
     * joins. False for what cannot be named that way: a function, an aliased join, NATURAL or USING
     * joins (whose merged columns belong to no single relation).
     */
    private static boolean relations(FromItem item, List<Join> joins, List<FromRelation> out) {
        if (item instanceof Table t) {
            out.add(relation(t));
        } else if (item instanceof ParenthesedSelect s && s.getAlias() != null) {
            out.add(new FromRelation(s.getAlias().getName()));
        } else if (item instanceof ParenthesedFromItem p && p.getAlias() != null) {
            // (VALUES …) AS v(a, b) reads this way; an aliased join does not name its tables
            if (!(p.getFromItem() instanceof Select) || hasAny(p.getJoins())) return false;
            out.add(new FromRelation(p.getAlias().getName()));
        } else if (item instanceof ParenthesedFromItem p) {
            if (!relations(p.getFromItem(), p.getJoins(), out)) return false;
        } else {
            return false;
        }
        if (joins == null) return true;
        for (Join j : joins) {
            if (j.isNatural() || hasAny(j.getUsingColumns())) return false;
            if (!relations(j.getRightItem() != null ? j.getRightItem() : j.getFromItem(), null, out)) return false;
        }
        return true;
    }

    /** A table of a FROM list: the rest of the statement calls it by its alias, else its name, as written. */
    private static FromRelation relation(Table t) {
        return new FromRelation(t.getAlias() != null ? t.getAlias().getName() : t.getName(), true,
                t.getSchemaName() == null ? t.getName() : null);
    }

    /** {@code SET (a, b) = (SELECT …)}: one subquery for several columns. */
    private static boolean rowSubquery(List<UpdateSet> sets) {
        if (sets == null) return false;
        for (UpdateSet s : sets) {
            List<?> values = s.getValues();
            if (s.getColumns().size() > 1 && values.size() == 1 && values.get(0) instanceof Select) return true;
        }
        return false;
    }

    private static boolean hasAny(Collection<?> c) {
        return c != null && !c.isEmpty();
    }

    /** The index after the bracket closing the one at {@code open}. */
    private int after(int open) {
        if (!tokens.is(open, "(")) throw new UnreadableSqlException("a parenthesis is not where expected");
        return require(tokens.closing(open), ")") + 1;
    }

    private void expect(int i, String word) {
        if (!tokens.is(i, word)) throw new UnreadableSqlException(word + " is not where expected");
    }

    private static int require(int index, String what) {
        if (index < 0) throw new UnreadableSqlException(what + " is not where expected");
        return index;
    }

    /**
     * Finds the keywords of the clauses the parser found (null: absent) in order, each after the
     * previous, from {@code cursor} on; a clause's body runs to the next one's keyword.
     */
    private Clauses locate(int cursor, String[]... keywords) {
        int[] at = new int[keywords.length];
        int[] from = new int[keywords.length];
        int[] to = new int[keywords.length];
        int c = cursor;
        for (int k = 0; k < keywords.length; k++) {
            at[k] = -1;
            if (keywords[k] == null) continue;
            at[k] = require(tokens.find(c, end, keywords[k]), String.join(" ", keywords[k]));
            from[k] = at[k] + keywords[k].length;
            c = from[k];
        }
        int next = end;
        for (int k = keywords.length - 1; k >= 0; k--) {
            if (at[k] < 0) continue;
            to[k] = next;
            next = at[k];
        }
        return new Clauses(at, from, to, next);
    }

    /** Clause bodies as token ranges; {@code firstKeyword}: where the first clause starts (or the end). */
    private record Clauses(int[] at, int[] from, int[] to, int firstKeyword) {
        boolean has(int k) {
            return at[k] >= 0;
        }

        int keyword(int k) {
            return at[k];
        }

        int from(int k) {
            return from[k];
        }

        int to(int k) {
            return to[k];
        }
    }

    private SqlFragment fragmentOf(Clauses c, int k) {
        return c.has(k) ? tokens.fragment(c.from(k), c.to(k)) : null;
    }

    /** Whether clause k contains a SELECT (a subquery). */
    private boolean hasSelect(Clauses c, int k) {
        return c.has(k) && tokens.contains(c.from(k), c.to(k), "SELECT");
    }
}
