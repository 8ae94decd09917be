import { Outlet } from '@tanstack/react-router';
import { TopBar } from './top-bar.tsx';

export function AppLayout() {
  return (
    <div className="app">
      <TopBar />
      <main className="page" id="main">
        <Outlet />
      </main>
    </div>
  );
}
