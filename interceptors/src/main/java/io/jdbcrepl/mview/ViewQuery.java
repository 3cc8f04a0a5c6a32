package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewCommand.Name;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A materialized view's query as the refresh needs it: one table, its select items, WHERE, GROUP
 * BY and HAVING. {@link #fastProblem()} says why the query cannot be refreshed fast whatever its
 * log holds (null when it can): fast refresh recomputes the groups (or, without aggregates, the
 * rows by key) that the log names, so any deterministic expression works in the items, WHERE and
 * HAVING, but the query must read one table, group by plain columns and hold no subquery.
 */
public final class ViewQuery {

    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX");

    /** One select item: its text, and the base column it is when it is a plain column (else null). */
    public record Item(String text, String column, boolean star) {
    }

    private final String sql;
    private final Name master;
    private final String fromText;
    private final List<Item> items;
    private final List<String> groupBy;
    private final String where;
    private final String groupByText;
    private final String having;
    private final boolean aggregate;
    private final Set<String> columns;
    private final String fastProblem;

    private ViewQuery(String sql, Name master, String fromText, List<Item> items, List<String> groupBy, String where,
            String groupByText, String having, boolean aggregate, Set<String> columns, String fastProblem) {
        this.sql = sql;
        this.master = master;
        this.fromText = fromText;
        this.items = items;
        this.groupBy = groupBy;
        this.where = where;
        this.groupByText = groupByText;
        this.having = having;
        this.aggregate = aggregate;
        this.columns = columns;
        this.fastProblem = fastProblem;
    }

    /** Reads {@code query}; fails (42601, 0AR01) when it is not a SELECT of one table. */
    public static ViewQuery parse(String query, Dialect dialect) throws SQLException {
        Statement st;
        try {
            st = CCJSqlParserUtil.parse(query);
        } catch (JSQLParserException e) {
            throw new SQLSyntaxErrorException("The query of the materialized view cannot be read: "
                    + MviewParser.abbreviate(query), SqlState.SYNTAX_ERROR.code(), e);
        }
        if (!(st instanceof PlainSelect select)) {
            throw unsupported("a materialized view's query must be one SELECT (no UNION, no WITH): " + MviewParser.abbreviate(query));
        }
        if (!(select.getFromItem() instanceof Table table) || (select.getJoins() != null && !select.getJoins().isEmpty())) {
            throw unsupported("a materialized view's query must read exactly one table (no join, no subquery in FROM): "
                    + MviewParser.abbreviate(query));
        }
        Name master = new Name(table.getSchemaName() == null ? null : fold(table.getSchemaName(), dialect),
                fold(table.getName(), dialect));
        String fromText = table.toString();

        List<String> problems = new ArrayList<>();
        if (select.getDistinct() != null) problems.add("DISTINCT");
        if (select.getLimit() != null || select.getOffset() != null || select.getFetch() != null || select.getTop() != null) {
            problems.add("LIMIT/OFFSET/FETCH");
        }
        if (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty()) problems.add("ORDER BY");
        if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) problems.add("WITH");

        Columns found = new Columns(dialect);
        List<Item> items = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllColumns) {
                items.add(new Item(item.toString(), null, true));
                found.star = true;
                continue;
            }
            e.accept(found, null);
            String column = e instanceof Column c ? fold(c.getColumnName(), dialect) : null;
            items.add(new Item(item.toString(), column, false));
        }
        boolean aggregate = found.aggregates > 0;
        Expression where = select.getWhere();
        if (where != null) {
            int before = found.aggregates;
            where.accept(found, null);
            if (found.aggregates > before) problems.add("an aggregate in WHERE");
        }
        List<String> groupBy = new ArrayList<>();
        String groupByText = null;
        if (select.getGroupBy() != null) {
            aggregate = true;
            if (select.getGroupBy().getGroupingSets() != null && !select.getGroupBy().getGroupingSets().isEmpty()) {
                problems.add("GROUPING SETS");
            }
            List<?> exprs = select.getGroupBy().getGroupByExpressionList();
            List<String> texts = new ArrayList<>();
            for (Object o : exprs == null ? List.of() : exprs) {
                Expression e = (Expression) o;
                e.accept(found, null);
                texts.add(e.toString());
                if (e instanceof Column c) groupBy.add(fold(c.getColumnName(), dialect));
                else problems.add("GROUP BY " + e + " (fast refresh groups by plain columns)");
            }
            groupByText = String.join(", ", texts);
        }
        String having = null;
        if (select.getHaving() != null) {
            select.getHaving().accept(found, null);
            having = select.getHaving().toString();
        }
        // the visitor does not descend into every kind of subquery (IN (SELECT …)): read the text too
        String rest = select.toString().substring(select.toString().toUpperCase(Locale.ROOT).indexOf("SELECT") + 6)
                .replaceAll("'([^']|'')*'", "''");
        if (found.subquery || rest.matches("(?is).*\\bSELECT\\b.*")) problems.add("a subquery");
        if (found.analytic) problems.add("a window function");
        if (aggregate && found.star) problems.add("* with aggregates");
        String fastProblem = problems.isEmpty() ? null : String.join(", ", problems);
        return new ViewQuery(query, master, fromText, List.copyOf(items), List.copyOf(groupBy),
                where == null ? null : where.toString(), groupByText, having, aggregate,
                java.util.Collections.unmodifiableSet(found.names), fastProblem);
    }

    private static String fold(String identifier, Dialect dialect) {
        return dialect.fold(identifier);
    }

    private static SQLException unsupported(String message) {
        return new SQLFeatureNotSupportedException(message, SqlState.REFUSED.code());
    }

    /** Collects column names, and notes aggregates, subqueries and window functions. */
    private static final class Columns extends ExpressionVisitorAdapter<Void> {
        final Dialect dialect;
        final Set<String> names = new LinkedHashSet<>();
        int aggregates;
        boolean subquery;
        boolean analytic;
        boolean star;

        Columns(Dialect dialect) {
            this.dialect = dialect;
        }

        @Override
        public <S> Void visit(Column column, S context) {
            names.add(fold(column.getColumnName(), dialect));
            return null;
        }

        @Override
        public <S> Void visit(Function function, S context) {
            if (AGGREGATES.contains(function.getName().toUpperCase(Locale.ROOT))) aggregates++;
            return super.visit(function, context);
        }

        @Override
        public <S> Void visit(ParenthesedSelect select, S context) {
            subquery = true;
            return null;
        }

        @Override
        public <S> Void visit(AnalyticExpression expression, S context) {
            analytic = true;
            return null;
        }
    }

    public String sql() {
        return sql;
    }

    /** The one table the view reads. */
    public Name master() {
        return master;
    }

    public List<Item> items() {
        return items;
    }

    /** GROUP BY's columns (folded names), empty without GROUP BY. */
    public List<String> groupBy() {
        return groupBy;
    }

    /** Whether the view aggregates (GROUP BY, or an aggregate in its items). */
    public boolean aggregate() {
        return aggregate;
    }

    /** Every column the query names (folded), except those {@code *} stands for. */
    public Set<String> columns() {
        return columns;
    }

    public boolean star() {
        return items.stream().anyMatch(Item::star);
    }

    /** Why the query cannot be refreshed fast whatever its log holds, or null. */
    public String fastProblem() {
        return fastProblem;
    }

    /**
     * The query restricted by {@code extra} (an SQL condition on the master's columns, or null for
     * the whole query): what a refresh inserts into the view.
     */
    public String restricted(String extra) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(items.get(i).text());
        }
        sb.append(" FROM ").append(fromText);
        if (where != null && extra != null) sb.append(" WHERE (").append(where).append(") AND (").append(extra).append(')');
        else if (where != null) sb.append(" WHERE ").append(where);
        else if (extra != null) sb.append(" WHERE ").append(extra);
        if (groupByText != null) sb.append(" GROUP BY ").append(groupByText);
        if (having != null) sb.append(" HAVING ").append(having);
        return sb.toString();
    }
}
