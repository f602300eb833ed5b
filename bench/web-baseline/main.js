/* global document */
// The web benchmark's baseline: React and ReactDOM rendering one element, nothing else,
// built by Vite with its defaults.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')).render(createElement('p', null, 'Hello'));
