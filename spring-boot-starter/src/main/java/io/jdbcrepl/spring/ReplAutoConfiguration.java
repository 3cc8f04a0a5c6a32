package io.jdbcrepl.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.ReplDriver;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.sql.SQLException;

/**
 * The jdbc:repl: driver in a Spring Boot application: {@code jdbc-repl.*} properties become the
 * pool's {@code repl.*} keys, the nodes' apply sides start with the context and stop with it. The
 * driver class itself is named by {@link ReplDriverClassName}, before any bean exists.
 */
@AutoConfiguration(before = DataSourceAutoConfiguration.class)
@ConditionalOnClass({DataSource.class, ReplDriver.class})
@EnableConfigurationProperties(JdbcReplProperties.class)
public class ReplAutoConfiguration {

    private static final Log LOG = LogFactory.getLog(ReplAutoConfiguration.class);

    @Bean(ReplNodes.BEAN)
    public static ReplNodes jdbcReplNodes() {
        return new ReplNodes();
    }

    /** Every data source depends on {@link ReplNodes}: it is destroyed after them, see there. */
    @Bean
    public static DataSourcesDependOnReplNodes jdbcReplDataSourcesDependOnNodes() {
        return new DataSourcesDependOnReplNodes();
    }

    /**
     * Takes a connection of each data source once the context has started: a node's apply side
     * then runs from the start, not from the application's first query, and {@link ReplNodes} knows
     * the node for the close. A database that does not answer yet only costs a warning.
     */
    @Bean
    public SmartInitializingSingleton jdbcReplApplyStart(ObjectProvider<DataSource> dataSources, ReplNodes nodes) {
        return () -> dataSources.orderedStream().forEach(dataSource -> {
            try {
                nodes.admin(dataSource);
            } catch (SQLException | RuntimeException e) {
                LOG.warn("jdbc:repl: no connection of " + dataSource + " at start; the apply side starts with the"
                        + " first connection: " + e);
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HikariDataSource.class)
    static class Hikari {

        @Bean
        static HikariReplKeys jdbcReplHikariKeys(Environment environment) {
            return new HikariReplKeys(environment);
        }
    }

    static final class DataSourcesDependOnReplNodes extends AbstractDependsOnBeanFactoryPostProcessor {

        DataSourcesDependOnReplNodes() {
            super(DataSource.class, ReplNodes.BEAN);
        }
    }
}
