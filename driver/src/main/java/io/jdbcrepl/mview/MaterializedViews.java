package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.mview.MviewCommand.PurgeLog;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The materialized views of a {@code jdbc:repl:} connection as a Java API
 * ({@code connection.unwrap(MaterializedViews.class)}): the same as {@code CALL DBMS_MVIEW.REFRESH}
 * and {@code CALL DBMS_MVIEW.PURGE_LOG}, in the connection's transaction (its own in auto-commit mode).
 */
public final class MaterializedViews {

    private final MviewSession session;

    MaterializedViews(MviewSession session) {
        this.session = session;
    }

    /** Refreshes fast where the view can be, else completely (Oracle's FORCE). */
    public void refresh(String... views) throws SQLException {
        refresh(Method.FORCE, views);
    }

    /** Runs the view's query again. */
    public void refreshComplete(String... views) throws SQLException {
        refresh(Method.COMPLETE, views);
    }

    /** Refreshes from the log; fails for a view that cannot be refreshed fast. */
    public void refreshFast(String... views) throws SQLException {
        refresh(Method.FAST, views);
    }

    private void refresh(Method method, String... views) throws SQLException {
        List<Name> names = new ArrayList<>();
        for (String v : views) names.add(name(v));
        session.own(() -> {
            session.ddl().refresh(session.raw(), names, method);
            return null;
        });
    }

    /** Purges the rows every fast-refresh view on {@code table} has refreshed past; {@code all}: every row. */
    public void purgeLog(String table, boolean all) throws SQLException {
        PurgeLog purge = new PurgeLog(name(table), all);
        session.own(() -> {
            session.ddl().purge(session.raw(), purge);
            return null;
        });
    }

    private Name name(String text) throws SQLException {
        MviewCommand c = MviewParser.parse("CALL DBMS_MVIEW.REFRESH(" + session.dialect().stringLiteral(text) + ")", session.dialect())
                .orElseThrow();
        List<Name> names = ((MviewCommand.Refresh) c).views();
        if (names.size() != 1) throw SqlState.SYNTAX_ERROR.exception("'" + text + "' is not one table or view name");
        return names.get(0);
    }
}
