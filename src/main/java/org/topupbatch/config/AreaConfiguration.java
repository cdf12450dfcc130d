package org.topupbatch.config;

import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;

/**
 * What every area's configuration class shares: Camel Main hands it the context before it binds
 * the class's {@link org.apache.camel.BindToRegistry} methods, so a bean built on first use can
 * reach Camel. An area that only binds beans has nothing to {@link #configure} besides.
 */
abstract class AreaConfiguration implements CamelConfiguration, CamelContextAware {

    protected CamelContext camel;

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.camel = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return camel;
    }

    @Override
    public void configure(CamelContext camelContext) {
    }
}
