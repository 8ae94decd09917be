import { useState } from 'react';
import type { Account } from '#shared/contract/accounts.ts';
import type { Position } from '#shared/contract/positions.ts';
import { Modal } from '#client/ui/modal.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { BrokerAccountsTable } from './broker-accounts-table.tsx';
import { BrokerInformation } from './broker-information.tsx';
import { InstrumentDistribution } from './instrument-distribution.tsx';
import { ExpandIcon } from '#client/ui/icons.tsx';

export interface BrokerSummaryProps {
  broker: string;
  accounts: readonly Account[];
  positions: readonly Position[] | null;
  showRebate: boolean;
  wide: boolean;
}

function SummaryContent({ broker, accounts, positions, showRebate, wide }: BrokerSummaryProps) {
  return (
    <div className="broker-summary-content">
      <BrokerInformation accounts={accounts} showRebate={showRebate} />
      <BrokerAccountsTable broker={broker} accounts={accounts} showRebate={showRebate} wide={wide} />
      <InstrumentDistribution positions={positions} />
    </div>
  );
}

/** Broker Summary section (docs/product.md#screens): information, accounts and distribution, with an expand button opening a modal. */
export function BrokerSummary(props: BrokerSummaryProps) {
  const [expanded, setExpanded] = useState(false);
  return (
    <>
      <SectionPanel
        title="Broker Summary"
        className="broker-summary"
        actions={
          <button type="button" className="icon-button expand-button" aria-label="Expand Broker Summary" onClick={() => setExpanded(true)}>
            <ExpandIcon />
          </button>
        }
      >
        <SummaryContent {...props} />
      </SectionPanel>
      <Modal open={expanded} onClose={() => setExpanded(false)} title={`Broker Summary - ${props.broker}`} fullScreen>
        <SummaryContent {...props} />
      </Modal>
    </>
  );
}
