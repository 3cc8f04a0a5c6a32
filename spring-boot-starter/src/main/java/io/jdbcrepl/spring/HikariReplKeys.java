package io.jdbcrepl.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.config.ReplUrl;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import java.util.Properties;

/**
 * Gives every {@link HikariDataSource} with a {@code jdbc:repl:} URL the {@code repl.*} keys of
 * the {@code jdbc-repl.*} properties as data source properties (what README's HikariCP section
 * does by hand), before the pool starts. A key the application set as a data source property
 * itself ({@code spring.datasource.hikari.data-source-properties[repl.node]}) stays as it is.
 */
class HikariReplKeys implements BeanPostProcessor, Ordered {

    private final Environment environment;

    HikariReplKeys(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && pool.getJdbcUrl() != null
                && pool.getJdbcUrl().startsWith(ReplUrl.PREFIX)) {
            Properties keys = DriverKeys.of(environment);
            if (keys.isEmpty()) return bean;
            if (pool.isRunning()) {
                throw new IllegalStateException("jdbc:repl: the pool " + beanName + " started before the jdbc-repl.*"
                        + " properties could be given to it: give the repl.* keys as its data source properties");
            }
            Properties set = pool.getDataSourceProperties();
            keys.stringPropertyNames().forEach(key -> {
                if (!set.containsKey(key)) pool.addDataSourceProperty(key, keys.getProperty(key));
            });
        }
        return bean;
    }

    /** After Boot has bound spring.datasource.hikari.* (a PriorityOrdered post-processor). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
