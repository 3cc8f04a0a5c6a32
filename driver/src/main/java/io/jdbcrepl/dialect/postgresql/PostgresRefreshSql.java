package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.mview.BoundSql;
import io.jdbcrepl.mview.KeyMatch;
import io.jdbcrepl.mview.RefreshSql;
import io.jdbcrepl.mview.ViewTable;

import java.util.ArrayList;
import java.util.List;

/** PostgreSQL's refreshes: keys bound as one array, and a view's rows written in place by one statement. */
final class PostgresRefreshSql implements RefreshSql {

    @Override
    public boolean arrayParameters() {
        return true;
    }

    /**
     * One statement: the keys' rows computed once from the master; the view's rows of those keys
     * that are not among them deleted; the others inserted, or updated where a value differs (an
     * unchanged row is not written; a changed one is updated in place, a HOT update when the page
     * has room: the view tables keep 10 % free, Oracle's PCTFREE).
     */
    @Override
    public List<BoundSql> refreshInPlace(String mv, ViewTable table, KeyMatch inView, BoundSql rows) {
        StringBuilder sql = new StringBuilder("WITH repl_n AS MATERIALIZED (").append(rows.sql()).append("), repl_d AS (DELETE FROM ")
                .append(mv).append(" repl_v WHERE (").append(inView.sql()).append(") AND NOT EXISTS (SELECT 1 FROM repl_n WHERE ");
        for (int i = 0; i < table.key().size(); i++) {
            String k = table.key().get(i);
            if (i > 0) sql.append(" AND ");
            sql.append("repl_n.").append(k).append(" = repl_v.").append(k);
        }
        sql.append(")) INSERT INTO ").append(mv).append(" AS repl_v SELECT * FROM repl_n ON CONFLICT (")
                .append(String.join(", ", table.key())).append(')');
        if (table.others().isEmpty()) {
            sql.append(" DO NOTHING");
        } else {
            List<String> set = new ArrayList<>();
            List<String> old = new ArrayList<>();
            List<String> excluded = new ArrayList<>();
            for (String c : table.others()) {
                set.add(c + " = EXCLUDED." + c);
                old.add("repl_v." + c);
                excluded.add("EXCLUDED." + c);
            }
            sql.append(" DO UPDATE SET ").append(String.join(", ", set)).append(" WHERE (").append(String.join(", ", old))
                    .append(") IS DISTINCT FROM (").append(String.join(", ", excluded)).append(')');
        }
        List<Object> parameters = new ArrayList<>(rows.parameters());
        parameters.addAll(inView.parameters());
        return List.of(new BoundSql(sql.toString(), parameters));
    }
}
