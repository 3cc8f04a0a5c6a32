package io.jdbcrepl.it.support;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MariaDBContainer;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers fallback, used only when no server answers at the default address: one
 * container per server kind for the whole JVM (Testcontainers' Ryuk removes them when it ends).
 * Kept apart so that the Testcontainers classes load only when needed.
 */
final class Containers {

    private static PostgreSQLContainer<?> postgres;
    private static MariaDBContainer<?> mariaDb;

    private Containers() {
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static synchronized ServerAddress postgres() {
        if (postgres == null) {
            PostgreSQLContainer<?> c = new PostgreSQLContainer<>(DockerImageName.parse("postgres:16"));
            c.start();
            postgres = c;
        }
        return new ServerAddress(postgres.getHost(), postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT),
                postgres.getUsername(), postgres.getPassword(), "Testcontainers postgres:16");
    }

    static synchronized ServerAddress mariaDb() {
        if (mariaDb == null) {
            // root, so that the tests may create and drop databases
            MariaDBContainer<?> c = new MariaDBContainer<>(DockerImageName.parse("mariadb:11"))
                    .withUsername("root")
                    .withPassword("test");
            c.start();
            mariaDb = c;
        }
        return new ServerAddress(mariaDb.getHost(), mariaDb.getMappedPort(3306),
                mariaDb.getUsername(), mariaDb.getPassword(), "Testcontainers mariadb:11");
    }
}
