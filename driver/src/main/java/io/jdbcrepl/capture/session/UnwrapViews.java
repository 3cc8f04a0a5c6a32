package io.jdbcrepl.capture.session;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What {@code unwrap} hands out on a capturing connection where the vendor's connection offers a
 * way past capture that applications use (PostgreSQL's copy API): a view of it that captures.
 * Elsewhere none ({@link #NONE}): {@code unwrap} hands out the vendor's connection. A part
 * ({@code dialect.part(UnwrapViews.class)}).
 */
@FunctionalInterface
public interface UnwrapViews {

    /** No views: the vendor's own connection. */
    UnwrapViews NONE = (session, raw) -> (iface, application) -> null;

    /** The views of one capturing connection, over its vendor connection {@code raw}; made on its first unwrap. */
    Views of(CaptureSession session, Connection raw);

    /** The views of one connection. */
    @FunctionalInterface
    interface Views {

        /** The view for {@code iface}, or null to hand out the vendor's connection. */
        Object view(Class<?> iface, Connection application) throws SQLException;
    }
}
