import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { hasPermission } from '#shared/domain/permissions.ts';
import { useSession } from '#client/auth/session-store.ts';
import { logout } from '#client/auth/logout.ts';
import { appVersion, feature } from '#client/config/runtime-config.ts';
import { ROUTES } from './paths.ts';
import { PortfolioSelect } from './portfolio-select.tsx';
import { BridgeToggle } from '#client/shell/bridge-toggle.tsx';
import { ConnectionIndicator } from '#client/shell/connection-indicator.tsx';
import { Notifications } from '#client/shell/notifications.tsx';
import { FocusOnNavigation, SkipLink } from './skip-link.tsx';
import { LogoutIcon, MenuIcon } from '#client/ui/icons.tsx';

const LINKS = [
  { to: ROUTES.home, label: 'Summary' },
  { to: ROUTES.accounts, label: 'Accounts' },
  { to: ROUTES.brokers, label: 'Brokers' },
  { to: ROUTES.nav, label: 'Nav' },
  { to: ROUTES.copy, label: 'Copy' },
] as const;

export function TopBar() {
  const session = useSession();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const canWrite = hasPermission(session?.restrictions, 'write');
  const links = hasPermission(session?.restrictions, 'read_rebate')
    ? [...LINKS, { to: ROUTES.rebates, label: 'Rebates' } as const]
    : LINKS;

  const onLogout = async () => {
    await logout();
    await navigate({ to: ROUTES.login });
  };

  return (
    <>
      <SkipLink />
      <FocusOnNavigation />
      <header className="topbar">
        <div className="topbar-inner">
          <button
            type="button"
            className="icon-button menu-toggle"
            aria-label="Menu"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            <MenuIcon />
          </button>
          <Link to={ROUTES.home} className="brand" aria-label="Copy Monitor" onClick={() => setMenuOpen(false)}>
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">Copy Monitor</span>
          </Link>
          <span className="version" title="App version">
            {appVersion()}
          </span>
          <ConnectionIndicator />
          <nav id="main-nav" className={menuOpen ? 'main-nav open' : 'main-nav'} aria-label="Main">
            {links.map((l) => (
              <Link
                key={l.to}
                to={l.to}
                className="nav-link"
                activeOptions={{ exact: true }}
                activeProps={{ className: 'nav-link active', 'aria-current': 'page' }}
                search={(prev) => prev}
                onClick={() => setMenuOpen(false)}
              >
                {l.label}
              </Link>
            ))}
            {/* The account statements, one tap from the menu (issue 40 item 8): Accounts' Fees & statement panel. */}
            <Link
              to={ROUTES.accounts}
              hash="statements"
              className="nav-link"
              activeOptions={{ exact: true, includeHash: true }}
              search={(prev) => prev}
              onClick={() => setMenuOpen(false)}
            >
              Statements
            </Link>
            <span className="menu-version">Version {appVersion()}</span>
          </nav>
          <div className="topbar-actions">
            {canWrite && feature('bridge_toggle') ? <BridgeToggle /> : null}
            <PortfolioSelect />
            <Notifications />
            <button type="button" className="button ghost logout" aria-label="Logout" onClick={() => void onLogout()}>
              <LogoutIcon className="logout-icon" />
              <span className="logout-label">Logout</span>
            </button>
          </div>
        </div>
      </header>
    </>
  );
}
