import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

function Home() {
  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        maxWidth: 640,
        margin: '4rem auto',
        padding: '0 1rem',
      }}
    >
      <h1>Filière</h1>
      <p>Le back-office de la filière ananas du Bénin, avec portefeuille en F CFA.</p>
      <p>
        <a href="/api/docs">Documentation de l’API</a>
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Home />
  </StrictMode>,
);
