package io.jdbcrepl.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Finds the PostgreSQL and MariaDB servers the tests use, once per JVM:
 * <ol>
 *   <li>the {@code REPL_IT_PG_*} / {@code REPL_IT_MARIADB_*} environment variables (HOST, PORT, USER,
 *       PASSWORD) when any of them is set: the user asked for that server, it is used as given;</li>
 *   <li>else the local default (127.0.0.1:5432 postgres, 127.0.0.1:3306 root, no password) if it answers;</li>
 *   <li>else, when a Docker engine is there, a Testcontainers container (postgres:16, mariadb:11)
 *       started once for the JVM;</li>
 *   <li>else an {@link IllegalStateException} that says what was tried: CI has servers, so a
 *       missing one is a failure, never a skip.</li>
 * </ol>
 */
public final class DatabaseServers {

    private static final Resolved POSTGRESQL = new Resolved(() -> resolve(
            "PostgreSQL", "REPL_IT_PG", 5432, "postgres", DatabaseServers::postgresAnswers, Containers::postgres));
    private static final Resolved MARIADB = new Resolved(() -> resolve(
            "MariaDB", "REPL_IT_MARIADB", 3306, "root", DatabaseServers::mariaDbAnswers, Containers::mariaDb));

    private DatabaseServers() {
    }

    public static ServerAddress postgres() {
        return POSTGRESQL.get();
    }

    public static ServerAddress mariaDb() {
        return MARIADB.get();
    }

    public static ServerAddress of(Vendor.Server server) {
        return switch (server) {
            case POSTGRESQL -> postgres();
            case MARIADB -> mariaDb();
            case NONE -> throw new IllegalArgumentException("H2 is embedded and has no server");
        };
    }

    /** Admin connection to the server itself (PostgreSQL: the {@code postgres} database; MariaDB: none selected). */
    public static Connection openAdmin(Vendor.Server server) throws SQLException {
        ServerAddress a = of(server);
        return open(server, a, 0);
    }

    private static Connection open(Vendor.Server server, ServerAddress a, int connectTimeoutSeconds)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", a.user());
        p.setProperty("password", a.password());
        String url;
        if (server == Vendor.Server.POSTGRESQL) {
            url = "jdbc:postgresql://" + a.host() + ":" + a.port() + "/postgres";
            if (connectTimeoutSeconds > 0) p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        } else {
            url = "jdbc:mariadb://" + a.host() + ":" + a.port() + "/";
            if (connectTimeoutSeconds > 0) p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds * 1000));
        }
        return DriverManager.getConnection(url, p);
    }

    private interface Probe {
        String failure(ServerAddress address); // null when the server answers
    }

    private interface ContainerStart {
        ServerAddress start();
    }

    private static ServerAddress resolve(String name, String envPrefix, int defaultPort, String defaultUser,
            Probe probe, ContainerStart containers) {
        String host = System.getenv(envPrefix + "_HOST");
        String port = System.getenv(envPrefix + "_PORT");
        String user = System.getenv(envPrefix + "_USER");
        String password = System.getenv(envPrefix + "_PASSWORD");
        boolean configured = host != null || port != null || user != null || password != null;
        ServerAddress address = new ServerAddress(
                host != null ? host : "127.0.0.1",
                port != null ? Integer.parseInt(port.trim()) : defaultPort,
                user != null ? user : defaultUser,
                password != null ? password : "",
                configured ? "environment " + envPrefix + "_*" : "local default");
        if (configured) {
            return address; // used as given; a wrong address fails loudly in the first test
        }
        String failure = probe.failure(address);
        if (failure == null) {
            return address;
        }
        if (Containers.dockerAvailable()) {
            return containers.start();
        }
        throw new IllegalStateException("No " + name + " server for the integration tests: " + address
                + " does not answer (" + failure + "), no " + envPrefix + "_HOST/_PORT/_USER/_PASSWORD variables "
                + "are set, and there is no Docker engine for Testcontainers. Start the server (.ci/run does) "
                + "or point the variables at one.");
    }

    private static String postgresAnswers(ServerAddress a) {
        return answers(Vendor.Server.POSTGRESQL, a);
    }

    private static String mariaDbAnswers(ServerAddress a) {
        return answers(Vendor.Server.MARIADB, a);
    }

    private static String answers(Vendor.Server server, ServerAddress a) {
        try (Connection c = open(server, a, 3)) {
            return c.isValid(3) ? null : "connection not valid";
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    /** A value computed once; a failure is kept and rethrown, so every test reports the same cause. */
    private static final class Resolved {
        private final java.util.function.Supplier<ServerAddress> supplier;
        private ServerAddress value;
        private RuntimeException failure;

        Resolved(java.util.function.Supplier<ServerAddress> supplier) {
            this.supplier = supplier;
        }

        synchronized ServerAddress get() {
            if (value == null && failure == null) {
                try {
                    value = supplier.get();
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            if (failure != null) throw new IllegalStateException(failure.getMessage(), failure);
            return value;
        }
    }
}
