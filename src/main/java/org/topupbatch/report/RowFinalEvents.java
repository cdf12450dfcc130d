package org.topupbatch.report;

import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.seda.SedaEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.RowFinalListener;

/**
 * Passes "rows of this batch became final" from the journal to the report route: the batch id
 * onto {@value #URI}, where the events are aggregated per batch. Never blocks or fails the
 * journal write that caused it: while Camel is not running, the report route is stopped or the
 * queue is full, the event is dropped and the report backstop finds the batch later.
 */
public class RowFinalEvents implements RowFinalListener {

    public static final String URI = "seda:row-final";

    private static final Logger LOG = LoggerFactory.getLogger(RowFinalEvents.class);

    private final CamelContext camel;
    private volatile ProducerTemplate template;
    private volatile SedaEndpoint queue;

    public RowFinalEvents(CamelContext camel) {
        this.camel = camel;
    }

    @Override
    public void rowsFinal(long batchId) {
        if (!camel.isStarted()) {
            return;
        }
        try {
            SedaEndpoint to = queue();
            if (to.getConsumers().isEmpty()) {
                return; // the report route is not running: nobody would take it
            }
            template().sendBody(to, batchId);
        } catch (RuntimeException e) {
            LOG.debug("Row-final event of batch {} dropped ({}); the report backstop will find it", batchId, e.getMessage());
        }
    }

    private SedaEndpoint queue() {
        if (queue == null) {
            Endpoint endpoint = camel.getEndpoint(URI);
            queue = (SedaEndpoint) endpoint;
        }
        return queue;
    }

    private ProducerTemplate template() {
        if (template == null) {
            synchronized (this) {
                if (template == null) {
                    template = camel.createProducerTemplate();
                }
            }
        }
        return template;
    }
}
