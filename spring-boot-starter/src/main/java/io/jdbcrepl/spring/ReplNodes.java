package io.jdbcrepl.spring;

import io.jdbcrepl.api.ReplAdmin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The replication nodes of the context's data sources, each reached as the {@link ReplAdmin} of
 * one of its connections. When the context closes this bean is destroyed after the data sources
 * (they depend on it): their pools are closed by then, so no new connection can start an inbound
 * server again, and {@link ReplAdmin#stopApply()} ends each node's apply threads at once instead of
 * after the driver's linger.
 */
public class ReplNodes implements DisposableBean {

    static final String BEAN = "jdbcReplNodes";
    private static final Log LOG = LogFactory.getLog(ReplNodes.class);

    private final Map<DataSource, ReplAdmin> admins = Collections.synchronizedMap(new IdentityHashMap<>());

    /**
     * The admin API of the data source's node, or null when its connections are no
     * {@code jdbc:repl:} node (no {@code repl.node}: a pass-through, or another driver). Takes a
     * connection of the data source for a moment.
     */
    public ReplAdmin admin(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!c.isWrapperFor(ReplAdmin.class)) {
                admins.remove(dataSource);
                return null;
            }
            ReplAdmin admin = c.unwrap(ReplAdmin.class);
            admins.put(dataSource, admin);
            return admin;
        }
    }

    @Override
    public void destroy() {
        List<ReplAdmin> nodes;
        synchronized (admins) {
            nodes = new ArrayList<>(admins.values());
            admins.clear();
        }
        for (ReplAdmin admin : nodes) {
            try {
                admin.stopApply();
            } catch (SQLException | RuntimeException e) {
                LOG.warn("jdbc:repl: could not stop the apply side of " + admin + ": " + e);
            }
        }
    }
}
