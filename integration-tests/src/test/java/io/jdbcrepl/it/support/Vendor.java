package io.jdbcrepl.it.support;

/**
 * A database server together with the JDBC driver used to reach it. The MariaDB server is reached
 * twice: with MariaDB Connector/J ({@code jdbc:mariadb:}) and with MySQL Connector/J
 * ({@code jdbc:mysql:}).
 */
public enum Vendor {

    POSTGRESQL(Server.POSTGRESQL, "postgresql"),
    MARIADB(Server.MARIADB, "mariadb"),
    /**
     * MySQL Connector/J on the MariaDB server. Trap (ENGINEERING.md): MariaDB 10.x announces itself
     * as {@code 5.5.5-10.x}, Connector/J takes that for a server without fractional seconds and
     * silently truncates the microseconds of <em>bound</em> {@code Timestamp}/{@code LocalDateTime}
     * parameters. No URL property turns this off ({@code sendFractionalSeconds=true} is already the
     * default and is ignored; measured with Connector/J 9.6.0 against MariaDB 10.11). Literals in
     * the SQL text and values bound with {@code setString} keep them. Tests that check lossless
     * timestamps must bind them that way here, or ask {@link #keepsFractionalSecondsOfBoundTimestamps()}.
     * MariaDB 11 no longer sends the {@code 5.5.5-} prefix.
     */
    MYSQL_DRIVER_ON_MARIADB(Server.MARIADB, "mysql"),
    /** Embedded, in memory: nothing to start. */
    H2(Server.NONE, "h2");

    /** The kind of server a vendor's databases live on. */
    public enum Server { POSTGRESQL, MARIADB, NONE }

    private final Server server;
    private final String subprotocol;

    Vendor(Server server, String subprotocol) {
        this.server = server;
        this.subprotocol = subprotocol;
    }

    public Server server() {
        return server;
    }

    /** The JDBC subprotocol: {@code jdbc:<subprotocol>:...}. */
    public String subprotocol() {
        return subprotocol;
    }

    /** False where the driver drops the microseconds of bound timestamps (see {@link #MYSQL_DRIVER_ON_MARIADB}). */
    public boolean keepsFractionalSecondsOfBoundTimestamps() {
        return this != MYSQL_DRIVER_ON_MARIADB;
    }

    /** Whether databases of this vendor live on the MariaDB server (either connector). */
    public boolean isMariaDbServer() {
        return server == Server.MARIADB;
    }
}
