import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { ApiError, NETWORK_ERROR } from '#client/api/http.ts';
import { LOGIN_FAILED, sessionMutations } from '#client/api/queries/session.ts';
import { safeRedirect } from '#client/app/paths.ts';
import './login-page.css';

function loginMessage(error: unknown): string {
  if (error instanceof ApiError) return error.status === 0 ? NETWORK_ERROR : error.message;
  return LOGIN_FAILED;
}

export function LoginPage() {
  const navigate = useNavigate();
  const { redirect } = useSearch({ from: '/login' });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const login = useMutation(sessionMutations.login());

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!username.trim() || !password) return;
    // Signed in: back to the page first asked for, or home.
    login.mutate({ username: username.trim(), password }, { onSuccess: () => void navigate({ href: safeRedirect(redirect), replace: true }) });
  };

  return (
    <div className="login-screen">
      <main className="login-card">
        <div className="login-brand">
          <span className="brand-mark large" aria-hidden="true" />
          <p className="login-product">Copy Monitor</p>
        </div>
        <h1>Sign in to your account</h1>
        <form onSubmit={onSubmit} noValidate={false}>
          <label className="field">
            <span>Username</span>
            <input
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          {login.isError && (
            <p className="form-error" role="alert">
              {loginMessage(login.error)}
            </p>
          )}
          <button type="submit" className="button primary block" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
      </main>
      <footer className="login-footer">© {new Date().getFullYear()} Copy Monitor. All rights reserved.</footer>
    </div>
  );
}
