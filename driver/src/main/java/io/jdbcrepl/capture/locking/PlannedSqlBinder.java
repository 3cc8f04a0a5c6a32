package io.jdbcrepl.capture.locking;

import io.jdbcrepl.intercept.BoundParameter;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.TemporalText;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Prepares a {@link PlannedSql} and binds the application's recorded values and the driver's own. */
final class PlannedSqlBinder {

    private final Map<Integer, BoundParameter> application = new HashMap<>();
    /** See {@link LockingCapabilities#temporalsAsText}. */
    private final boolean temporalsAsText;

    PlannedSqlBinder(List<BoundParameter> parameters, LockingCapabilities capabilities) {
        for (BoundParameter p : parameters) application.put(p.index(), p);
        this.temporalsAsText = capabilities.temporalsAsText();
    }

    PreparedStatement prepare(Connection connection, PlannedSql sql, List<TypedValue> driverValues) throws SQLException {
        return prepare(connection, sql, driverValues, false);
    }

    /** @param scrollable its result can be read again ({@code beforeFirst}) */
    PreparedStatement prepare(Connection connection, PlannedSql sql, List<TypedValue> driverValues, boolean scrollable)
            throws SQLException {
        PreparedStatement ps = scrollable
                ? connection.prepareStatement(sql.text(), java.sql.ResultSet.TYPE_SCROLL_INSENSITIVE, java.sql.ResultSet.CONCUR_READ_ONLY)
                : connection.prepareStatement(sql.text());
        try {
            Iterator<TypedValue> driver = driverValues.iterator();
            int target = 0;
            for (int p : sql.parameters()) {
                target++;
                if (p == PlannedSql.DRIVER) {
                    TypedValue v = driver.next();
                    // a key that is a time or timestamp goes as text, every fractional digit kept
                    String text = temporalsAsText ? TemporalText.of(v.value()) : null;
                    if (text != null) ps.setString(target, text);
                    else v.type().bind(ps, target, v.value());
                } else {
                    BoundParameter bound = application.get(p);
                    if (bound == null) throw SqlState.WRONG_NUMBER_OF_PARAMETERS.exception("No value specified for parameter " + p);
                    bound.bindTo(ps, target);
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}
