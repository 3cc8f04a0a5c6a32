package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.NativeCopy;
import io.jdbcrepl.intercept.SqlState;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * {@code COPY (query) TO STDOUT} on the donor piped into {@code COPY table (columns) FROM STDIN}
 * here, in text format (what {@code pg_dump | psql} does): the server formats and parses the
 * values, nothing is bound one by one. Both sessions read and write temporal values in UTC and
 * ISO style (the join sets the zone, pgjdbc the style), floats with every digit (pgjdbc's
 * {@code extra_float_digits}), intervals and money as the donor writes them
 * ({@link #readAsWritten}), so the text is the value. pgjdbc's copy API is reached by reflection
 * through the connection's own class loader, as {@link PgNotifications} does.
 */
final class PostgresNativeCopy implements NativeCopy {

    /** Rows are gathered up to this many bytes before they are sent: fewer, larger messages. */
    private static final int BUFFER = 64 * 1024;
    /** Progress is told every this many rows. */
    private static final int PROGRESS_ROWS = 1_000;

    /** pgjdbc's copy API: PGConnection, CopyManager, CopyOut, CopyIn. */
    private record Api(Class<?> connection, Method copyApi, Method copyOut, Method copyIn, Method read, Method write,
            Method end, Method active, Method cancel) {

        static Api of(Class<?> connectionClass) throws ReflectiveOperationException {
            ClassLoader loader = connectionClass.getClassLoader();
            Class<?> pg = Class.forName("org.postgresql.PGConnection", false, loader);
            Class<?> manager = Class.forName("org.postgresql.copy.CopyManager", false, loader);
            Class<?> out = Class.forName("org.postgresql.copy.CopyOut", false, loader);
            Class<?> in = Class.forName("org.postgresql.copy.CopyIn", false, loader);
            Class<?> operation = Class.forName("org.postgresql.copy.CopyOperation", false, loader);
            return new Api(pg, pg.getMethod("getCopyAPI"), manager.getMethod("copyOut", String.class),
                    manager.getMethod("copyIn", String.class), out.getMethod("readFromCopy"),
                    in.getMethod("writeToCopy", byte[].class, int.class, int.class), in.getMethod("endCopy"),
                    operation.getMethod("isActive"), operation.getMethod("cancelCopy"));
        }

        Object invoke(Method m, Object target, Object... args) throws SQLException {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof SQLException sql) throw sql;
                throw SqlState.CONNECTION_EXCEPTION.exception("COPY failed in " + m.getName() + ": " + e.getCause(), e.getCause());
            } catch (IllegalAccessException e) {
                throw SqlState.CONNECTION_EXCEPTION.exception("COPY failed in " + m.getName() + ": " + e, e);
            }
        }

        /** {@code sql} (a COPY) started on {@code c}. */
        Object start(Connection c, Method how, String sql) throws SQLException {
            return invoke(how, invoke(copyApi, c.unwrap(connection)), sql);
        }
    }

    private static final ClassValue<Api> APIS = new ClassValue<>() {
        @Override
        protected Api computeValue(Class<?> connectionClass) {
            try {
                return Api.of(connectionClass);
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }
    };

    @Override
    public boolean exists() {
        return true;
    }

    @Override
    public long copy(Connection donor, String query, Connection local, String table, List<String> columns, Rows progress)
            throws SQLException {
        Api out = api(donor);
        Api in = api(local);
        readAsWritten(donor, local);
        Object reading = out.start(donor, out.copyOut(), "COPY (" + query + ") TO STDOUT");
        Object writing = null;
        try {
            writing = in.start(local, in.copyIn(), "COPY " + table + " (" + String.join(", ", columns) + ") FROM STDIN");
            byte[] buffer = new byte[BUFFER];
            int used = 0;
            long rows = 0;
            // the server sends one message per row
            for (byte[] row; (row = (byte[]) out.invoke(out.read(), reading)) != null; ) {
                if (used + row.length > BUFFER) {
                    in.invoke(in.write(), writing, buffer, 0, used);
                    used = 0;
                }
                if (row.length > BUFFER) {
                    in.invoke(in.write(), writing, row, 0, row.length);
                } else {
                    System.arraycopy(row, 0, buffer, used, row.length);
                    used += row.length;
                }
                if (++rows % PROGRESS_ROWS == 0) progress.copied(rows);
            }
            if (used > 0) in.invoke(in.write(), writing, buffer, 0, used);
            in.invoke(in.end(), writing);
            return rows;
        } catch (SQLException | RuntimeException e) {
            cancel(out, reading, e);
            if (writing != null) cancel(in, writing, e);
            throw e;
        }
    }

    /**
     * The settings the text of a value depends on beyond what pgjdbc fixes (DateStyle, the float
     * digits) and the join sets (the zone): the joining session reads intervals and money as the
     * donor writes them, until its commit.
     */
    private static void readAsWritten(Connection donor, Connection local) throws SQLException {
        String intervals;
        String money;
        try (Statement s = donor.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('IntervalStyle'), current_setting('lc_monetary')")) {
            rs.next();
            intervals = rs.getString(1);
            money = rs.getString(2);
        }
        try (PreparedStatement ps = local.prepareStatement("SELECT set_config('IntervalStyle', ?, true), set_config('lc_monetary', ?,"
                + " true)")) {
            ps.setString(1, intervals);
            ps.setString(2, money);
            ps.executeQuery().close();
        }
    }

    private static Api api(Connection c) throws SQLException {
        Api api = APIS.get(c.getClass());
        if (api == null) {
            throw SqlState.REFUSED.exception("The PostgreSQL connection " + c.getClass().getName() + " is not pgjdbc's:"
                    + " cannot COPY a table");
        }
        return api;
    }

    /** Ends a COPY still under way, so that its connection can be used (rolled back) again. */
    private static void cancel(Api api, Object copy, Exception cause) {
        try {
            if ((Boolean) api.invoke(api.active(), copy)) api.invoke(api.cancel(), copy);
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
